// The load benchmark's server: a small Vapor app whose JSON goes through
// Foundation's coders or JSONKit's, chosen on the command line, so that
// `Scripts/load` can drive both with wrk and compare them.
//
//   JSONKitVaporLoad --coder foundation|jsonkit [--hostname 127.0.0.1] [--port 8080]
//
// Routes:
//   POST /status           decodes a twitter status, changes a field, encodes the reply
//   GET  /catalog          encodes the citm catalog (decoded once at start)
//   POST /control/status   takes the same body, returns the same reply pre-encoded
//   GET  /control/catalog  returns the catalog pre-encoded
// The control routes do a request's work without JSON, so the difference
// between a route and its control is the time JSON takes.

import Foundation
import JSONKit
import JSONKitCorpus
import JSONKitVapor
import NIOFoundationCompat
import Vapor

/// The load server: see the comment at the top of the file.
@main
enum LoadServer {
  static func main() async throws {
    let arguments = LoadArguments(CommandLine.arguments.dropFirst())
    guard let dataDirectory = Corpus.dataDirectory() else {
      fatalError("Benchmarks/Data not found above \(FileManager.default.currentDirectoryPath)")
    }
    let search = try JSONDecoder().decode(
      Twitter.SearchResult.self, from: Corpus.twitter.data(in: dataDirectory))
    let catalog = try JSONDecoder().decode(
      CITM.Catalog.self, from: Corpus.citmCatalog.data(in: dataDirectory))
    let reply = StatusReply(search.statuses[0])

    // What the control routes send: encoded once, with the coder under test.
    let controlReply: ByteBuffer
    let controlCatalog: ByteBuffer
    switch arguments.coder {
    case .foundation:
      ContentConfiguration.global.use(encoder: JSONEncoder(), for: .json)
      ContentConfiguration.global.use(decoder: JSONDecoder(), for: .json)
      controlReply = ByteBuffer(data: try JSONEncoder().encode(reply))
      controlCatalog = ByteBuffer(data: try JSONEncoder().encode(catalog))
    case .jsonkit:
      ContentConfiguration.global.use(encoder: JKEncoder(), for: .json)
      ContentConfiguration.global.use(decoder: JKDecoder(), for: .json)
      controlReply = ByteBuffer(bytes: try JKEncoder().encodeToBytes(reply))
      controlCatalog = ByteBuffer(bytes: try JKEncoder().encodeToBytes(catalog))
    }

    // Request logging off, so that what is measured is the request's own work.
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = .warning
      return handler
    }
    let environment = Environment(
      name: "production",
      arguments: [
        "JSONKitVaporLoad", "serve", "--hostname", arguments.hostname,
        "--port", "\(arguments.port)",
      ])
    let app = try await Application.make(environment)
    app.routes.defaultMaxBodySize = "1mb"

    app.post("status") { request async throws -> Response in
      let status = try request.content.decode(Twitter.Status.self)
      let response = Response(status: .ok)
      try response.content.encode(StatusReply(status), as: .json)
      return response
    }
    app.get("catalog") { _ async throws -> Response in
      let response = Response(status: .ok)
      try response.content.encode(catalog, as: .json)
      return response
    }
    app.post("control", "status") { _ async throws -> Response in
      LoadServer.preEncoded(controlReply)
    }
    app.get("control", "catalog") { _ async throws -> Response in
      LoadServer.preEncoded(controlCatalog)
    }

    do {
      try await app.execute()
    } catch {
      try await app.asyncShutdown()
      throw error
    }
    try await app.asyncShutdown()
  }

  /// A response whose body was encoded before the request came.
  static func preEncoded(_ body: ByteBuffer) -> Response {
    Response(
      status: .ok, headers: ["Content-Type": "application/json; charset=utf-8"],
      body: .init(buffer: body))
  }
}
