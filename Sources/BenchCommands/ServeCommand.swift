import ArgumentParser
import FeedBench
import Foundation

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the mock feed API and its images over real HTTP, under the simulator's conditions.",
        discussion: """
        Starts an HTTP/1.1 server (with --tls, HTTP/2 and HTTP/1.1 over TLS on one port, as the \
        client's ALPN chooses) that answers as the simulated world does, so a real app (in the \
        iOS Simulator, or on a device on the same network with --host 0.0.0.0) can be run under \
        the conditions `bench run` simulated, and its traffic compared request for request:

          GET /v1/images/search?limit=10&page=N   page N of the feed for --seed, as JSON \
        [{id, url, width, height}], after the API's latency; injected 5xx, timeouts (504) and \
        429s with Retry-After
          GET /images/{id}.jpg                    a baseline JPEG of the image's size and exactly \
        its modelled bytes, with ETag, If-None-Match (304), Range (206); at most the per-host \
        connection limit at once per client (over HTTP/2, the stream limit; a request's RFC 9218 \
        priority header with u=0…2 makes its stream urgent)

        Every answer of both crosses the simulation's network model (handshakes, TLS, slow \
        start, the shared bottleneck, losses): its bytes are written as the model delivers them. \
        With --pace none they are written at once instead, after the API's latency, for a client \
        behind a link that does the network (Validation/emulation: the kernel's TCP through an \
        emulated link).
          GET|PUT /_conditions                     the network and API models as JSON; a PUT \
        changes them for the next request ({"network": "3g"}, {"offline": true})
          GET /openapi.yaml                        the API in OpenAPI 3.1

        The feed is `bench run`'s for the same --seed (its first session): the same catalogue, \
        the same pages in the same order. Prints the URL it listens on, serves until Ctrl-C or \
        SIGTERM, finishes the responses under way and exits 0. --log writes one CSV line per \
        request as it ends.

        Examples:
          bench serve --profile low-end --seed 1 --log requests.csv
          bench serve --network 3g --port 9000 --conditions conditions.json
          bench serve --tls --http 2       (a certificate made at start; its fingerprint is printed)
          bench serve --tls --tls-cert-out cert.pem   (then: curl --cacert cert.pem https://127.0.0.1:8080/…)
          bench serve --tls-cert cert.pem --tls-key key.pem --http 2
          bench serve --tls --pace none --host 10.77.2.1   (behind an emulated link)
          bench serve --api-latency lognormal:300ms,1.2s --api-failures 0.05 --api-rate-limit 10/1s
          curl -X PUT localhost:8080/_conditions -d '{"api": {"failureProbability": 0.2}}'

        Docs: docs/serve-and-live.md, "The feed as a real server: bench serve".
        """
    )

    @Option(help: ArgumentHelp("A built-in profile or a profile JSON file: its network is the default.", valueName: "name|file"))
    var profile = "low-end"

    @Option(help: .network)
    var network: String?

    @Option(help: ArgumentHelp("The seed of the feed's pages and of the latency, fault and network draws.", valueName: "seed"))
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("The address to listen on (0.0.0.0 for devices on the network).", valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on (0: any free one).", valueName: "port"))
    var port = 8080

    @Option(help: ArgumentHelp("Conditions JSON to start from (the format GET /_conditions prints).", valueName: "file"))
    var conditions: String?

    @Option(help: ArgumentHelp("The API's latency: 300ms (fixed), uniform:20ms,80ms or lognormal:MEAN,P99 (default lognormal:300ms,1.2s).", valueName: "model"))
    var apiLatency: String?

    @Option(help: ArgumentHelp("The probability that an API call fails with a 500 (default 0).", valueName: "p"))
    var apiFailures: String?

    @Option(help: ArgumentHelp("The probability that an API call is slower, optionally by how much: 0.05 or 0.05x5 (default 0, x5).", valueName: "p[xM]"))
    var apiSpikes: String?

    @Option(help: ArgumentHelp("API calls longer than this end in a 504 then (default 60s; none: never).", valueName: "duration|none"))
    var apiTimeout: String?

    @Option(help: ArgumentHelp("Answer 429 when N calls were served in the window before (10/1s; default none).", valueName: "N/duration|none"))
    var apiRateLimit: String?

    @Option(help: ArgumentHelp("Write one CSV line per request here as it ends.", valueName: "file"))
    var log: String?

    @Option(help: ArgumentHelp("The HTTP version the network model runs: 1.1 (default) or 2 (needs TLS).", valueName: "version"))
    var http: String?

    @Flag(help: "Serve over TLS with a certificate made at start (printed: its SHA-256 fingerprint): HTTP/2 and HTTP/1.1 on one port by ALPN.")
    var tls = false

    @Option(help: ArgumentHelp("Serve over TLS with this PEM certificate chain, leaf first (with --tls-key).", valueName: "file"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    @Option(help: ArgumentHelp("With --tls: write the certificate made at start to this file (PEM), for a client to trust (curl --cacert, bench run --live-ca).",
                               valueName: "file"))
    var tlsCertOut: String?

    @Option(help: ArgumentHelp("""
        How answers are written: model (default: as the network model delivers them) or none (at once, as fast as \
        TCP takes them, for a client behind a real or emulated link that does the network; the API's latency stays).
        """, valueName: "model|none"))
    var pace: String = ServePace.model.rawValue

    func validate() throws {
        guard (0...65_535).contains(port) else { throw InputError(source: "--port", "expected a port in 0…65535, found \(port)") }
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw InputError(source: tlsCert == nil ? "--tls-key" : "--tls-cert", "expected --tls-cert and --tls-key together")
        }
        guard ServePace(rawValue: pace) != nil else {
            throw InputError(source: "--pace", "expected model or none, found \(pace)")
        }
        guard tlsCertOut == nil || (tls && tlsCert == nil) else {
            throw InputError(source: "--tls-cert-out", "expected --tls, whose certificate made at start it writes (a brought --tls-cert is a file already)")
        }
    }

    /// The TLS asked for, if any.
    var tlsRequest: HTTPPart.TLS? {
        if let tlsCert, let tlsKey { return .files(certificate: tlsCert, key: tlsKey) }
        return tls ? .generated(writingTo: tlsCertOut) : nil
    }

    func run() throws {
        // The log and the certificate's file are checked before anything starts: a folder, a
        // device (`/dev/null` would be replaced), a path nothing can be created at: one line,
        // nothing written.
        try OutputPath.check([log.map { .file($0, option: "--log") }, tlsCertOut.map { .file($0, option: "--tls-cert-out") }].compactMap { $0 })
        let device = try DeviceProfile.named(profile)
        var start = ServeConditions(network: try NetworkFile.resolve(network ?? device.defaultNetwork, option: "--network"))
        // A preset's HTTP/2 is negotiated in the TLS handshake: without TLS it is served over
        // HTTP/1.1, as a CDN serves a client that offers no h2.
        if tlsRequest == nil && http == nil && NetworkProfile.builtIn.contains(where: { $0.name == (network ?? device.defaultNetwork) }) {
            start.network.http = .http11
        }
        if http == nil { try ServeConditions.checkServed(start.network, overTLS: tlsRequest != nil, source: network ?? "--network") }
        if let conditions {
            guard let data = try ReadableFile.contents(at: conditions) else {
                throw InputError(source: conditions, "cannot read the conditions file")
            }
            start = try start.applying(json: data, source: conditions)
            try ServeConditions.checkServed(start.network, overTLS: tlsRequest != nil, source: conditions)
        }
        if let http {
            start.network.http = try SessionOptions.httpVersion(http)
            try ServeConditions.checkServed(start.network, overTLS: tlsRequest != nil, source: "--http")
        }
        start.api = try APIModelFlags(latency: apiLatency, failures: apiFailures, spikes: apiSpikes, timeout: apiTimeout,
                                      rateLimit: apiRateLimit).applied(to: start.api)
        try HTTPPart.required(by: "serve").serve(HTTPPart.ServeRequest(host: host, port: port, seed: seed, conditions: start, logPath: log,
                                                                                    tls: tlsRequest, pace: ServePace(rawValue: pace) ?? .model))
    }
}
