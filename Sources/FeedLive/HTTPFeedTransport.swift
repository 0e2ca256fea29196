#if HTTP
import FeedBench

/// The feed transport over real HTTP: each call is `GET /v1/images/search?limit=10&page=N`, N the
/// number of calls the server has drawn a page for so far plus one, so a server with the run's
/// seed answers call k with the simulation's k-th page (`FeedPageBook`). A 500, 504 or 429 is the
/// simulated API's fault of the same name, a 503 a server error that drew no page; an answer that
/// the network is down (`bench serve` offline) is a server error that never reached the server,
/// as a simulated call made offline; a request lost on the way (timed out, connection dropped) is
/// a timeout that drew no page either. Anything else — another status, a body that is not a page — stops the run.
struct HTTPFeedTransport: FeedTransport {
    let http: LiveHTTP
    let inbox: EventInbox
    let catalog: ImageCatalog
    /// The outcome of the call whose answer has arrived, and the pages the server has drawn.
    let shared = Locked<(answer: (outcome: FeedAPIResponse.Outcome, reachedServer: Bool)?, pagesDrawn: Int)>((nil, 0))

    static let path = "/v1/images/search"

    mutating func requestPage<Clock: RunClock<SimulationEvent>>(launch: Int, at now: Int64, clock: inout Clock) -> Bool {
        let path = Self.path + "?limit=\(FeedAPIConfiguration.pageSize)&page=\(shared.withLock { $0.pagesDrawn } + 1)"
        let (http, inbox, catalog, shared) = (http, inbox, catalog, shared)
        inbox.expect()
        _ = http.get(path, keepsBody: true) { answer in
            let status: Int, body: [UInt8]
            switch answer {
            case let .reply(replied, received, _): (status, body) = (replied, received)
            case .lost: (status, body) = (0, [])
            case .offline:
                // The network is down: the call fails at once without reaching the API, which
                // draws nothing for it (as `SimulatedFeedTransport` offline).
                shared.withLock { $0.answer = (.failure(.serverError), false) }
                return inbox.post(.apiResponse(launch: launch))
            case .none: return inbox.forgo()
            }
            let outcome: FeedAPIResponse.Outcome
            switch status {
            case 0: outcome = .failure(.timeout)
            case 200:
                switch FeedPage.images(body, catalog: catalog) {
                case let .success(images): outcome = .page(images)
                case let .failure(refusal):
                    http.refuse(path, FeedPage.expected + ", " + refusal.detail)
                    return inbox.forgo()
                }
            case 500, 503: outcome = .failure(.serverError)
            case 504: outcome = .failure(.timeout)
            case 429: outcome = .failure(.rateLimited)
            default:
                http.refuse(path, FeedPage.expected + ", found HTTP status \(status)")
                return inbox.forgo()
            }
            shared.withLock { state in
                state.answer = (outcome, true)
                if status != 503 && status != 0 { state.pagesDrawn += 1 }
            }
            inbox.post(.apiResponse(launch: launch))
        }
        return true
    }

    mutating func takeAnswer() -> (outcome: FeedAPIResponse.Outcome, reachedServer: Bool)? {
        shared.withLock { state in
            defer { state.answer = nil }
            return state.answer
        }
    }

    mutating func startLaunch(_ index: Int, at start: Int64) {
        shared.withLock { $0.answer = nil }
    }
}
#endif
