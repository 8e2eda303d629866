import JSONKit
import JSONKitVapor
import Testing
import Vapor

// The set-up that README and the documentation's server article show, word
// for word, so that the build checks it. Not called: it changes the global
// configuration, which the live tests set themselves.
func configureAsDocumented() {
  ContentConfiguration.global.useJSONKit()  // JSON and JSON:API, Vapor's ISO 8601 dates
  // or coder by coder, as with Foundation's:
  ContentConfiguration.global.use(decoder: JKDecoder(), for: .json)
}
