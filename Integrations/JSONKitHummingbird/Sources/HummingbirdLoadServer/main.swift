// The load benchmark's server: the same small application with Foundation's
// coders or JSONKit's, chosen on the command line, plus control routes that
// do the same work without JSON. `Scripts/load` builds it and drives it with wrk.
//
//   HummingbirdLoadServer --coder jsonkit|foundation --port 8080 --data Benchmarks/Data
//
// POST /status            decodes a twitter status, adds a field, encodes the reply
// POST /status/control    collects the body and returns the reply encoded at start
// GET  /catalog           encodes the citm catalog (decoded once at start)
// GET  /catalog/control   returns the catalog encoded at start

import Foundation
import Hummingbird
import JSONKit
import JSONKitCorpus
import JSONKitHummingbird
import Logging

/// What the server was asked to do.
struct Settings {
  var coder = "jsonkit"
  var port = 8080
  var data = "Benchmarks/Data"

  init(arguments: [String]) {
    var rest = arguments.dropFirst()
    while let flag = rest.popFirst() {
      guard let value = rest.popFirst() else { fatalError("\(flag) needs a value") }
      switch flag {
      case "--coder": coder = value
      case "--port": port = Int(value) ?? port
      case "--data": data = value
      default: fatalError("unknown flag \(flag); use --coder, --port, --data")
      }
    }
    guard coder == "jsonkit" || coder == "foundation" else {
      fatalError("--coder is jsonkit or foundation, not \(coder)")
    }
  }
}

/// The reply to a posted status: the status as received, and one field the
/// server adds.
struct StatusReply: Encodable, ResponseEncodable {
  var status: Twitter.Status
  var seenBy: String
}

/// A context with JSONKit's coders, set up as Hummingbird sets up Foundation's.
struct JSONKitRequestContext: RequestContext {
  typealias Decoder = JKDecoder
  typealias Encoder = JKEncoder
  var coreContext: CoreRequestContextStorage
  init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
}

/// Pre-encoded JSON for the control routes, written with the same headers
/// the coders write.
func jsonResponse(_ bytes: ByteBuffer) -> Response {
  Response(
    status: .ok,
    headers: [
      .contentType: "application/json; charset=utf-8",
      .contentLength: String(bytes.readableBytes),
    ],
    body: ResponseBody(byteBuffer: bytes))
}

func run<Context: RequestContext>(
  _ context: Context.Type, settings: Settings, encode: (any Encodable) throws -> [UInt8]
) async throws where Context.Source == ApplicationRequestContextSource {
  let dataURL = URL(fileURLWithPath: settings.data)
  let twitter = try Data(contentsOf: dataURL.appendingPathComponent("twitter.json"))
  let citm = try Data(contentsOf: dataURL.appendingPathComponent("citm_catalog.json"))
  let catalog = try JSONDecoder().decode(CITM.Catalog.self, from: citm)
  let firstStatus = try JSONDecoder().decode(Twitter.SearchResult.self, from: twitter).statuses[0]
  let catalogBytes = ByteBuffer(bytes: try encode(catalog))
  let replyBytes = ByteBuffer(bytes: try encode(StatusReply(status: firstStatus, seenBy: "server")))

  let router = Router(context: Context.self)
  router.post("/status") { request, context -> StatusReply in
    let status = try await request.decode(as: Twitter.Status.self, context: context)
    return StatusReply(status: status, seenBy: "server")
  }
  router.post("/status/control") { request, context -> Response in
    _ = try await request.body.collect(upTo: context.maxUploadSize)
    return jsonResponse(replyBytes)
  }
  router.get("/catalog") { request, context -> Response in
    try context.responseEncoder.encode(catalog, from: request, context: context)
  }
  router.get("/catalog/control") { _, _ -> Response in jsonResponse(catalogBytes) }

  var logger = Logger(label: "HummingbirdLoadServer")
  logger.logLevel = .warning
  let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: settings.port)),
    logger: logger)
  print("serving with \(settings.coder)'s coders on 127.0.0.1:\(settings.port)")
  try await app.runService()
}

let settings = Settings(arguments: CommandLine.arguments)
if settings.coder == "jsonkit" {
  try await run(JSONKitRequestContext.self, settings: settings) {
    try Array(JKEncoder().encode($0))
  }
} else {
  let encoder = JSONEncoder()
  encoder.dateEncodingStrategy = .iso8601
  try await run(BasicRequestContext.self, settings: settings) { try Array(encoder.encode($0)) }
}
