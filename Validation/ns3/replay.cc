// replay: FeedBench's request log replayed over an ns-3 network, as an outside check of
// FeedBench's network model (Validation/ns3/README.md says what is compared and why).
//
//   replay --log LOG.csv --network NET.json [--seed N] [--horizon-s 120] [--out FILE]
//          [--cwnd-trace FILE] [--link-log FILE]
//
// --link-log: direction,queued_ns,left_ns,arrived_ns,ip_bytes lines: every packet the
// bottleneck's two devices send (down: router -> client, up: client -> router), in the order
// each direction sends them: when the device's queue took it, when its last byte left, when it
// reached the other end (empty when random loss dropped it there). Packets the full queue
// dropped are not in it.
//
// --cwnd-trace: time_s,connection,what,bytes lines: each server socket's cwnd and ssthresh
// changes, the segments it sends again (retransmit) and its segments the bottleneck drops
// (drop, drop-retransmission), those two with the segment's relative sequence number.
//
// Topology: server ==(10 Gbps, 0 delay, 100,000-packet queue)== router ==(bottleneck)== client.
// The bottleneck's router->client device sends at the network's downlink rate through a
// drop-tail queue of bufferPackets packets; the client->router device at the uplink rate,
// the same queue size. A direction the network file gives as a recording (downlinkTrace,
// uplinkTrace: Mahimahi's format, from recordingStartMs on) is driven by it instead, packet by
// packet ("recorded links" below). No traffic-control queue disc anywhere (ns-3 installs FqCoDel on
// every device Ipv4AddressHelper::Assign numbers; it is uninstalled below). One
// PointToPointChannel delay serves both directions: (oneWayDelayMs + uplinkDelayMs) / 2.
// Random loss: a per-packet RateErrorModel on the client's device (downlink) and on the
// router's device facing the client (uplink), seeded by --seed (ns-3's run number).
//
// Output (stdout or --out): one CSV line per log row, in the log's order:
//   row,time_ms,kind,status,connection,new_connection,bytes,model_ms,ns3_ms,completed,sent_ms
// row is the data row's number (1 = the first line after the header); kind is api, image or
// other; ns3_ms is from time_ms to the response's last byte at the client in ns-3 (empty
// when it did not complete before the horizon, completed = 0); sent_ms is when ns-3's client
// sent the request (for a new connection: when it started the handshake), later than
// time_ms when the connection was still busy in ns-3. A cancelled (499) row's ns3_ms is the
// time its whole response (object_bytes) would have taken, when ns-3 got that far before the
// cancel; it is empty otherwise.
// Warnings go to stderr as "warning: ...", a summary as "info: ...", bad input as one
// "error: ..." line and exit status 2.

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include "bottleneck.h"
#include "network_file.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

// ---------------------------------------------------------------------------------------------
// Message sizes. FeedBench's network model uses the same constants: change both together.
// ---------------------------------------------------------------------------------------------
constexpr uint64_t kRequestBytes = 400;          // an HTTP request's headers, client -> server
constexpr uint64_t kResponseHeaderBytes = 300;   // a response's headers, before its body
constexpr uint64_t kClientHelloBytes = 517;      // TLS 1.3 ClientHello, client -> server
constexpr uint64_t kServerTlsFlightBytes = 4000; // ServerHello ... Finished, server -> client
constexpr uint64_t kResetStreamBytes = 13;        // HTTP/2 RST_STREAM: a 9-byte frame header + 4
// HTTP/2: the server writes a stream's bytes a segment at a time, and only while TCP holds less
// than this unsent (TCP_NOTSENT_LOWAT, which servers that honour priorities set), so that
// each write picks the stream by priority as the window opens.
constexpr uint64_t kH2FrameBytes = 1448;
constexpr uint64_t kH2UnsentLowWater = 2 * 1448;
// (The client's Finished rides with its first request: TLS 1.3 costs one extra round trip.
// No TLS record overhead beyond these.)

// The simulated hosts' ports: both hosts are the one server node.
constexpr uint16_t kImagePort = 443;
constexpr uint16_t kApiPort = 8443;

// The fast link between the server and the router: never the bottleneck, never drops.
constexpr const char* kFastRate = "10Gbps";
constexpr uint32_t kFastQueuePackets = 100000;
// TCP's send and receive buffers: far above any profile's bandwidth-delay product
// (ns-3's default, 128 KiB, would cap lte's window below its ~719 KB).
constexpr uint32_t kSocketBufferBytes = 4u << 20;

// ---------------------------------------------------------------------------------------------
// The request log.
// ---------------------------------------------------------------------------------------------
struct Request
{
    size_t row = 0;           // data row number, 1-based
    int64_t timeUs = 0;       // time_ms, in microseconds (the log has 3 decimals); sent_ms is
                              // not read: a simulated run's log, replayed here, has it equal
    std::string timeText;     // time_ms as written
    std::string kind;         // api, image or other
    int status = 0;
    uint64_t bytes = 0;
    uint64_t objectBytes = 0;
    int64_t thinkUs = 0;      // the server's think time before answering
    int64_t modelUs = 0;      // duration_ms
    std::string modelText;    // duration_ms as written
    long connection = 0;      // as logged
    bool newConnection = false;
    bool lowPriority = false; // a prefetch's (the log's priority "low"): HTTP/2 serves it last
    size_t conn = 0;          // internal connection index
    int64_t idleSinceUs = 0;  // when the response before it on its connection ended (as logged)
    uint64_t responseBytes = 0; // what the server sends: headers + body

    // What happened in ns-3.
    bool arrived = false;   // its time_ms has come
    bool sent = false;
    Time sentAt;
    bool done = false;
    Time doneAt;
    bool skipped = false;   // cancelled before ns-3 could send it

    // HTTP/2: the response bytes the server has still to write, and the connection's byte
    // count at which its last byte arrives (0: not written yet).
    uint64_t unwritten = 0;
    uint64_t endOffset = 0;
    bool requested = false; // its request has gone (HTTP/2)
    bool reset = false;
};

std::vector<std::string>
SplitCsv(const std::string& line)
{
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i)
    {
        char c = line[i];
        if (quoted)
        {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
            {
                field += '"';
                ++i;
            }
            else if (c == '"')
            {
                quoted = false;
            }
            else
            {
                field += c;
            }
        }
        else if (c == '"' && field.empty())
        {
            quoted = true;
        }
        else if (c == ',')
        {
            fields.push_back(field);
            field.clear();
        }
        else
        {
            field += c;
        }
    }
    fields.push_back(field);
    return fields;
}

// A non-negative decimal with at most 3 decimals (milliseconds) -> microseconds, exactly.
bool
ParseMillis(const std::string& text, int64_t& micros)
{
    if (text.empty())
    {
        return false;
    }
    int64_t whole = 0;
    int64_t frac = 0;
    int fracDigits = 0;
    bool dot = false;
    bool any = false;
    for (char c : text)
    {
        if (c == '.' && !dot)
        {
            dot = true;
            continue;
        }
        if (c < '0' || c > '9')
        {
            return false;
        }
        any = true;
        if (dot)
        {
            if (fracDigits == 3)
            {
                if (c != '0')
                {
                    return false;
                }
                continue;
            }
            frac = frac * 10 + (c - '0');
            ++fracDigits;
        }
        else
        {
            if (whole > 1'000'000'000'000LL)
            {
                return false;
            }
            whole = whole * 10 + (c - '0');
        }
    }
    while (fracDigits < 3)
    {
        frac *= 10;
        ++fracDigits;
    }
    micros = whole * 1000 + frac;
    return any;
}


struct Log
{
    std::vector<Request> requests;
    bool oldFormat = false;
};

Log
ReadLog(const std::string& path)
{
    static const std::vector<std::string> kColumns = {"time_ms",
                                                      "method",
                                                      "path",
                                                      "status",
                                                      "bytes",
                                                      "object_bytes",
                                                      "injected_delay_ms",
                                                      "duration_ms",
                                                      "connection",
                                                      "new_connection",
                                                      "protocol",
                                                      "priority",
                                                      "sent_ms"};
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        Fail(path + ": cannot read the file");
    }
    Log log;
    std::string line;
    size_t lineNumber = 0;
    size_t columns = 0;
    while (std::getline(in, line))
    {
        ++lineNumber;
        if (!line.empty() && line.back() == '\r')
        {
            line.pop_back();
        }
        if (lineNumber == 1)
        {
            auto header = SplitCsv(line);
            if (header.size() >= 11 && header.size() <= 13 &&
                std::equal(header.begin(), header.end(), kColumns.begin()))
            {
                columns = header.size();
            }
            else if (header.size() == 9 &&
                     std::equal(header.begin(), header.end(), kColumns.begin()))
            {
                columns = 9;
                log.oldFormat = true;
            }
            else
            {
                Fail(path + ":1: expected the header time_ms,method,path,status,bytes,"
                            "object_bytes,injected_delay_ms,duration_ms,connection"
                            "[,new_connection,protocol[,priority[,sent_ms]]]");
            }
            continue;
        }
        if (line.empty())
        {
            continue;
        }
        auto f = SplitCsv(line);
        std::string where = path + ":" + std::to_string(lineNumber) + ": ";
        if (f.size() != columns)
        {
            Fail(where + "expected " + std::to_string(columns) + " fields, found " +
                 std::to_string(f.size()));
        }
        Request r;
        r.row = log.requests.size() + 1;
        uint64_t whole;
        if (!ParseMillis(f[0], r.timeUs))
        {
            Fail(where + "time_ms: expected milliseconds, found \"" + f[0] + "\"");
        }
        r.timeText = f[0];
        const std::string& p = f[2];
        r.kind = p.rfind("/v1/", 0) == 0 ? "api" : p.rfind("/images/", 0) == 0 ? "image" : "other";
        if (!ParseWhole(f[3], 100, 599, whole))
        {
            Fail(where + "status: expected an HTTP status, found \"" + f[3] + "\"");
        }
        r.status = static_cast<int>(whole);
        if (!ParseWhole(f[4], 0, 1ULL << 40, r.bytes))
        {
            Fail(where + "bytes: expected a whole number, found \"" + f[4] + "\"");
        }
        if (!f[5].empty() && !ParseWhole(f[5], 0, 1ULL << 40, r.objectBytes)) // empty: no image
        {
            Fail(where + "object_bytes: expected a whole number, found \"" + f[5] + "\"");
        }
        if (!ParseMillis(f[6], r.thinkUs))
        {
            Fail(where + "injected_delay_ms: expected milliseconds, found \"" + f[6] + "\"");
        }
        if (!ParseMillis(f[7], r.modelUs))
        {
            Fail(where + "duration_ms: expected milliseconds, found \"" + f[7] + "\"");
        }
        r.modelText = f[7];
        if (!ParseWhole(f[8], 0, 1ULL << 31, whole))
        {
            Fail(where + "connection: expected a whole number, found \"" + f[8] + "\"");
        }
        r.connection = static_cast<long>(whole);
        if (columns >= 12)
        {
            if (f[11] != "" && f[11] != "high" && f[11] != "low")
            {
                Fail(where + "priority: expected high, low or nothing, found \"" + f[11] + "\"");
            }
            r.lowPriority = f[11] == "low";
        }
        if (columns >= 11)
        {
            if (f[9] != "0" && f[9] != "1")
            {
                Fail(where + "new_connection: expected 0 or 1, found \"" + f[9] + "\"");
            }
            r.newConnection = f[9] == "1";
            if (f[10] != "http/1.1" && f[10] != "h2")
            {
                static bool warned = false;
                if (!warned)
                {
                    Warn(path + ": protocol \"" + f[10] +
                         "\": ns-3 replays every connection as HTTP/1.1 (one response at a time)");
                    warned = true;
                }
            }
        }
        if (log.oldFormat && r.kind == "image")
        {
            // The 9-column logs wrote the whole duration in injected_delay_ms: images have no
            // server think time.
            r.thinkUs = 0;
        }
        // A cancelled download: the server would have sent the whole object.
        uint64_t body = r.status == 499 ? std::max(r.objectBytes, r.bytes) : r.bytes;
        r.responseBytes = kResponseHeaderBytes + body;
        log.requests.push_back(r);
    }
    if (columns == 0)
    {
        Fail(path + ": empty file (no header)");
    }
    if (log.oldFormat)
    {
        Warn(path + ": a 9-column log: the first request on each connection number (and the first "
                    "after a cancel on it) opens it; image think times are 0, API think times are "
                    "injected_delay_ms as logged");
    }
    return log;
}

// ---------------------------------------------------------------------------------------------
// The replay.
// ---------------------------------------------------------------------------------------------
struct Conn
{
    long logged = 0;            // the log's connection number
    uint16_t port = kImagePort;
    std::vector<size_t> requests; // indices into g_requests, in time order
    size_t nextToSend = 0;

    // Client side.
    Ptr<Socket> client;
    bool opened = false;
    bool established = false;
    bool tlsDone = false;
    bool busy = false;
    bool aborted = false;
    size_t current = 0;          // the request whose response is arriving
    uint64_t consumed = 0;       // bytes read by the client
    uint64_t streamTarget = 0;   // the byte count at which the current response ends
    uint64_t cancelTarget = 0;   // for a 499, where object_bytes would end

    // Server side.
    Ptr<Socket> server;
    bool serverGone = false;
    bool tlsAnswered = false;
    uint64_t serverRead = 0;     // bytes the server has read
    uint64_t requestsRead = 0;   // whole requests the server has read
    std::deque<size_t> sentOrder; // requests the client sent, oldest first (the request line)
    uint64_t pendingWrite = 0;   // response bytes not yet handed to TCP

    // HTTP/2: what the client sent, in order (a request, or a RST_STREAM for it), and the bytes
    // of it the server has read; the streams the server is answering, in the order they
    // started; the next one to write within an urgency; every byte written so far (the TLS
    // flight included: the client's received count); the sequence after the highest TCP has
    // sent (Linux's snd_nxt: retransmissions do not move it back).
    struct Message
    {
        size_t request;
        bool reset;
    };
    std::deque<Message> messages;
    uint64_t messagesRead = 0;
    std::vector<size_t> streams;
    size_t turn = 0;
    uint64_t written = 0;
    SequenceNumber32 highestSent;

    // --cwnd-trace: the server's first data segment's sequence number (the trace counts from
    // it), the end of the highest segment it has sent, and the segments it sent again.
    struct Sent
    {
        bool any = false;
        SequenceNumber32 first;
        SequenceNumber32 end;
        std::set<uint32_t> again;
    };
    Sent sent;
};

std::vector<Request> g_requests;
std::vector<Conn> g_conns;
std::map<uint16_t, size_t> g_connByClientPort;
Network g_net;
bool g_h2 = false; // g_net.http == "2": one connection a host, its responses as streams
Ipv4Address g_serverAddress;
Ptr<Node> g_clientNode;
std::ofstream g_cwndTrace;

void TrySend(size_t c);

uint64_t
ClientReceived(const Conn& conn)
{
    return conn.consumed + (conn.client ? conn.client->GetRxAvailable() : 0);
}

void
ClientRecv(size_t c, Ptr<Socket> socket)
{
    Conn& conn = g_conns[c];
    // Read all but one byte: a byte always left unread makes Close() send a RST (ns-3 resets
    // a connection closed with unread data), so a cancel stops the server at once.
    uint32_t available = socket->GetRxAvailable();
    if (available > 1)
    {
        Ptr<Packet> p = socket->Recv(available - 1, 0);
        conn.consumed += p ? p->GetSize() : 0;
    }
    uint64_t received = ClientReceived(conn);
    if (g_net.tls && !conn.tlsDone && received >= kServerTlsFlightBytes)
    {
        conn.tlsDone = true;
        TrySend(c);
        return;
    }
    if (g_h2)
    {
        for (size_t i : conn.requests)
        {
            Request& r = g_requests[i];
            if (r.sent && !r.done && !r.reset && r.endOffset > 0 && received >= r.endOffset)
            {
                r.done = true;
                r.doneAt = Simulator::Now();
            }
        }
        return;
    }
    if (!conn.busy)
    {
        return;
    }
    Request& r = g_requests[conn.current];
    if (r.status == 499 && received >= conn.cancelTarget && !r.done)
    {
        // ns-3 delivered the whole object before the cancel: record when, stay busy until
        // the cancel closes the connection.
        r.done = true;
        r.doneAt = Simulator::Now();
    }
    if (r.status != 499 && received >= conn.streamTarget)
    {
        r.done = true;
        r.doneAt = Simulator::Now();
        conn.busy = false;
        TrySend(c);
    }
}

void
SendOnClient(Conn& conn, uint64_t bytes)
{
    int sent = conn.client->Send(Create<Packet>(static_cast<uint32_t>(bytes)));
    if (sent != static_cast<int>(bytes))
    {
        Fail("internal: the client's socket refused a request");
    }
}

// Sends the connection's next request if the connection is ready and idle and the request's
// time has come.
void
TrySend(size_t c)
{
    Conn& conn = g_conns[c];
    if (g_h2 && !conn.aborted && conn.established && (!g_net.tls || conn.tlsDone))
    {
        // Every request whose time has come goes at once, each a stream of its own.
        for (; conn.nextToSend < conn.requests.size(); ++conn.nextToSend)
        {
            size_t i = conn.requests[conn.nextToSend];
            Request& r = g_requests[i];
            if (!r.arrived)
            {
                return;
            }
            if (r.skipped)
            {
                continue;
            }
            if (!r.sent)
            {
                r.sent = true;
                r.sentAt = Simulator::Now();
            }
            r.requested = true;
            conn.messages.push_back({i, false});
            SendOnClient(conn, kRequestBytes);
        }
        return;
    }
    if (conn.aborted || !conn.established || conn.busy || (g_net.tls && !conn.tlsDone))
    {
        return;
    }
    while (conn.nextToSend < conn.requests.size())
    {
        Request& r = g_requests[conn.requests[conn.nextToSend]];
        if (r.skipped)
        {
            ++conn.nextToSend;
            continue;
        }
        if (!r.arrived)
        {
            return;
        }
        ++conn.nextToSend;
        if (!r.sent) // a new connection's first request was "sent" when the handshake began
        {
            r.sent = true;
            r.sentAt = Simulator::Now();
        }
        conn.busy = true;
        conn.current = conn.requests[conn.nextToSend - 1];
        conn.streamTarget += r.responseBytes;
        conn.cancelTarget = conn.streamTarget;
        conn.sentOrder.push_back(conn.current);
        SendOnClient(conn, kRequestBytes);
        return;
    }
}

void
ConnectSucceeded(size_t c, Ptr<Socket>)
{
    Conn& conn = g_conns[c];
    conn.established = true;
    if (g_net.tls)
    {
        SendOnClient(conn, kClientHelloBytes);
    }
    else
    {
        TrySend(c);
    }
}

void
ConnectFailed(size_t c, Ptr<Socket>)
{
    g_conns[c].aborted = true; // its requests never complete
}

void
Open(size_t c)
{
    Conn& conn = g_conns[c];
    conn.opened = true;
    conn.client = Socket::CreateSocket(g_clientNode, TcpSocketFactory::GetTypeId());
    conn.client->Bind();
    Address local;
    conn.client->GetSockName(local);
    uint16_t port = InetSocketAddress::ConvertFrom(local).GetPort();
    if (g_connByClientPort.count(port))
    {
        Fail("internal: ephemeral port reused (more than 16,000 connections)");
    }
    g_connByClientPort[port] = c;
    conn.client->SetConnectCallback(MakeBoundCallback(&ConnectSucceeded, c),
                                    MakeBoundCallback(&ConnectFailed, c));
    conn.client->SetRecvCallback(MakeBoundCallback(&ClientRecv, c));
    conn.client->Connect(InetSocketAddress(g_serverAddress, conn.port));
    conn.streamTarget = g_net.tls ? kServerTlsFlightBytes : 0;
}

void
RequestTime(size_t i)
{
    Request& r = g_requests[i];
    r.arrived = true;
    if (g_h2)
    {
        // HTTP/2 queues no request behind another's response: its time runs from now, the
        // wait for its connection's handshakes included, as the model's does.
        r.sent = true;
        r.sentAt = Simulator::Now();
    }
    Conn& conn = g_conns[r.conn];
    if (!conn.opened)
    {
        r.sent = true; // measured from here: the handshake is part of its duration
        r.sentAt = Simulator::Now();
        Open(r.conn);
        return;
    }
    TrySend(r.conn);
}

// The client cancels a download (a 499 row) at time_ms + duration_ms.
void
Cancel(size_t i)
{
    Request& r = g_requests[i];
    Conn& conn = g_conns[r.conn];
    if (conn.aborted)
    {
        return;
    }
    if (!r.sent)
    {
        r.skipped = true; // still queued behind a slower response in ns-3: never sent
        return;
    }
    if (g_h2)
    {
        // The stream is reset; the connection stays. One whose request has not gone (the
        // handshakes are under way) is never sent.
        if (!r.requested)
        {
            r.skipped = true;
        }
        else if (!r.done)
        {
            r.reset = true;
            conn.messages.push_back({i, true});
            SendOnClient(conn, kResetStreamBytes);
        }
        return;
    }
    conn.aborted = true;
    conn.busy = false;
    if (conn.client)
    {
        conn.client->Close(); // a RST when a byte is unread (always, once data has arrived)
    }
}

// --- server ---

void ServerFlush(size_t c, Ptr<Socket> socket, uint32_t);

void
StartResponse(size_t c, size_t i)
{
    Conn& conn = g_conns[c];
    if (conn.serverGone)
    {
        return;
    }
    if (g_h2)
    {
        Request& r = g_requests[i];
        if (!r.reset)
        {
            r.unwritten = r.responseBytes;
            conn.streams.push_back(i);
        }
    }
    else
    {
        conn.pendingWrite += g_requests[i].responseBytes;
    }
    ServerFlush(c, conn.server, 0);
}

// HTTP/2's server: the TLS flight first, then a segment at a time of a stream with bytes to
// write — the high-priority ones before the low, in turn within a priority — while TCP holds
// less than kH2UnsentLowWater not yet sent. A stream's last write sets the byte count at which
// it arrives whole. Called when TCP frees buffer room and whenever it sends new data (as a
// socket with TCP_NOTSENT_LOWAT becomes writable), so that TCP always has new data to send
// while the server has some: in fast recovery too, where no acknowledgement frees room.
void
H2Flush(size_t c, Ptr<Socket> socket)
{
    Conn& conn = g_conns[c];
    auto tcp = DynamicCast<TcpSocketBase>(socket);
    while (!conn.serverGone)
    {
        uint64_t unsent = conn.written == 0 ? 0 : static_cast<uint64_t>(std::max<int32_t>(0, tcp->GetTxBuffer()->TailSequence() - conn.highestSent));
        uint32_t room = socket->GetTxAvailable();
        if (unsent >= kH2UnsentLowWater || room == 0)
        {
            return;
        }
        uint64_t chunk = 0;
        Request* stream = nullptr;
        if (conn.pendingWrite > 0)
        {
            chunk = std::min<uint64_t>({conn.pendingWrite, kH2FrameBytes, room});
            conn.pendingWrite -= chunk;
        }
        else
        {
            // The streams of the most urgent priority with bytes to write, from `turn` on.
            bool anyHigh = std::any_of(conn.streams.begin(), conn.streams.end(),
                                       [](size_t i) { return !g_requests[i].lowPriority; });
            for (size_t k = 0; k < conn.streams.size(); ++k)
            {
                size_t at = (conn.turn + k) % conn.streams.size();
                Request& r = g_requests[conn.streams[at]];
                if (!anyHigh || !r.lowPriority)
                {
                    stream = &r;
                    conn.turn = (at + 1) % conn.streams.size();
                    break;
                }
            }
            if (!stream)
            {
                return;
            }
            chunk = std::min<uint64_t>({stream->unwritten, kH2FrameBytes, room});
            stream->unwritten -= chunk;
        }
        int sent = socket->Send(Create<Packet>(static_cast<uint32_t>(chunk)));
        if (sent <= 0)
        {
            Fail("internal: the server's socket refused a write it had room for");
        }
        conn.written += chunk;
        if (stream && stream->unwritten == 0)
        {
            stream->endOffset = conn.written;
            conn.streams.erase(std::find(conn.streams.begin(), conn.streams.end(),
                                         static_cast<size_t>(stream - g_requests.data())));
            conn.turn = conn.streams.empty() ? 0 : conn.turn % conn.streams.size();
        }
    }
}

void H2Flush(size_t c, Ptr<Socket> socket);

// TCP sent new data on connection c: the server's unsent bytes went down, and it writes more.
// (Written only when the send callback came, the server left TCP without new data through a
// fast recovery — dupACKs free no room — and lte's launches ended in timeouts: ns-3's p90
// download on lte reading 2.0 times the model's, 1.12 with this.)
void
HighestSentChanged(size_t c, Ptr<Socket> socket, SequenceNumber32, SequenceNumber32 next)
{
    g_conns[c].highestSent = next;
    Simulator::ScheduleNow(&H2Flush, c, socket);
}

void
ServerFlush(size_t c, Ptr<Socket> socket, uint32_t)
{
    if (g_h2)
    {
        H2Flush(c, socket);
        return;
    }
    Conn& conn = g_conns[c];
    while (!conn.serverGone && conn.pendingWrite > 0)
    {
        uint32_t room = socket->GetTxAvailable();
        if (room == 0)
        {
            return; // the send callback calls again when TCP frees room
        }
        uint32_t chunk = static_cast<uint32_t>(
            std::min<uint64_t>({conn.pendingWrite, room, uint64_t{1} << 20}));
        int sent = socket->Send(Create<Packet>(chunk));
        if (sent <= 0)
        {
            return;
        }
        conn.pendingWrite -= static_cast<uint64_t>(sent);
    }
}

void
ServerRecv(size_t c, Ptr<Socket> socket)
{
    Conn& conn = g_conns[c];
    while (Ptr<Packet> p = socket->Recv())
    {
        if (p->GetSize() == 0)
        {
            break;
        }
        conn.serverRead += p->GetSize();
    }
    uint64_t hello = g_net.tls ? kClientHelloBytes : 0;
    if (g_net.tls && !conn.tlsAnswered && conn.serverRead >= hello)
    {
        conn.tlsAnswered = true;
        conn.pendingWrite += kServerTlsFlightBytes;
        ServerFlush(c, socket, 0);
    }
    if (g_h2)
    {
        // Requests and resets, each whole once its bytes are in.
        while (!conn.messages.empty())
        {
            auto message = conn.messages.front();
            uint64_t bytes = message.reset ? kResetStreamBytes : kRequestBytes;
            if (conn.serverRead < hello + conn.messagesRead + bytes)
            {
                break;
            }
            conn.messagesRead += bytes;
            conn.messages.pop_front();
            Request& r = g_requests[message.request];
            if (message.reset)
            {
                r.unwritten = 0; // the server stops writing it; what TCP holds still goes
                auto it = std::find(conn.streams.begin(), conn.streams.end(), message.request);
                if (it != conn.streams.end())
                {
                    conn.streams.erase(it);
                    conn.turn = conn.streams.empty() ? 0 : conn.turn % conn.streams.size();
                }
            }
            else
            {
                Simulator::Schedule(MicroSeconds(r.thinkUs), &StartResponse, c, message.request);
            }
        }
        return;
    }
    while (conn.serverRead >= hello + (conn.requestsRead + 1) * kRequestBytes)
    {
        ++conn.requestsRead;
        if (conn.sentOrder.empty())
        {
            Fail("internal: the server read a request the client did not send");
        }
        size_t i = conn.sentOrder.front();
        conn.sentOrder.pop_front();
        Simulator::Schedule(MicroSeconds(g_requests[i].thinkUs), &StartResponse, c, i);
    }
}

void
ServerClosed(size_t c, Ptr<Socket>)
{
    g_conns[c].serverGone = true;
    g_conns[c].pendingWrite = 0;
}

// One --cwnd-trace line: now, connection c as logged, what happened, and a byte count or a
// sequence number.
void
TraceLine(size_t c, const char* what, uint64_t value)
{
    g_cwndTrace << std::fixed << std::setprecision(6) << Simulator::Now().GetSeconds() << ","
                << g_conns[c].logged << "," << what << "," << value << "\n";
}

void
WindowChanged(size_t c, const char* what, uint32_t, uint32_t bytes)
{
    TraceLine(c, what, bytes);
}

// A data segment the server of connection c sends: one that starts below the end of the
// highest sent before it is a retransmission.
void
SegmentSent(size_t c, Ptr<const Packet> packet, const TcpHeader& header, Ptr<const TcpSocketBase>)
{
    if (packet->GetSize() == 0)
    {
        return;
    }
    Conn::Sent& sent = g_conns[c].sent;
    SequenceNumber32 start = header.GetSequenceNumber();
    if (!sent.any)
    {
        sent = {true, start, start, {}};
    }
    if (start < sent.end)
    {
        sent.again.insert(start.GetValue());
        TraceLine(c, "retransmit", start - sent.first);
    }
    else
    {
        sent.end = start + packet->GetSize();
    }
}

// A downlink segment dropped at the bottleneck: its connection and relative sequence number,
// and whether it was a retransmission (one SegmentSent saw go again).
void
SegmentDropped(bool framed, Ptr<const Packet> packet)
{
    Ptr<Packet> copy = packet->Copy();
    if (framed)
    {
        PppHeader ppp;
        copy->RemoveHeader(ppp);
    }
    // The traffic-control layer's drops carry the IPv4 header too (version 4, a 20-byte header).
    uint8_t first = 0;
    if (copy->CopyData(&first, 1) == 1 && first == 0x45)
    {
        Ipv4Header ip;
        copy->RemoveHeader(ip);
    }
    TcpHeader tcp;
    if (copy->RemoveHeader(tcp) == 0 || copy->GetSize() == 0)
    {
        return;
    }
    auto port = g_connByClientPort.find(tcp.GetDestinationPort());
    if (port == g_connByClientPort.end() || !g_conns[port->second].sent.any)
    {
        return;
    }
    const Conn::Sent& sent = g_conns[port->second].sent;
    SequenceNumber32 start = tcp.GetSequenceNumber();
    bool retransmission = sent.again.count(start.GetValue()) > 0;
    TraceLine(port->second, retransmission ? "drop-retransmission" : "drop", start - sent.first);
}

bool
AcceptRequest(Ptr<Socket>, const Address&)
{
    return true;
}

void
Accepted(Ptr<Socket> socket, const Address& from)
{
    uint16_t port = InetSocketAddress::ConvertFrom(from).GetPort();
    auto it = g_connByClientPort.find(port);
    if (it == g_connByClientPort.end())
    {
        Fail("internal: the server accepted a connection from an unknown port");
    }
    size_t c = it->second;
    Conn& conn = g_conns[c];
    conn.server = socket;
    // The accepted socket is a fork of the listener, and ns-3 3.44's TcpCubic copy constructor
    // leaves m_tcpFriendliness uninitialized: each server socket's Reno-friendly region was on
    // or off by whatever the heap held, so a replay's durations changed with, say, the length
    // of the log's path. A freshly constructed TcpCubic has its attributes' defaults (the
    // region on); the handshake's last ACK, which follows this callback, is its first.
    DynamicCast<TcpSocketBase>(socket)->SetCongestionControlAlgorithm(CreateObject<TcpCubic>());
    socket->SetRecvCallback(MakeBoundCallback(&ServerRecv, c));
    socket->SetSendCallback(MakeBoundCallback(&ServerFlush, c));
    socket->SetCloseCallbacks(MakeBoundCallback(&ServerClosed, c),
                              MakeBoundCallback(&ServerClosed, c));
    if (g_h2)
    {
        socket->TraceConnectWithoutContext("HighestSequence", MakeBoundCallback(&HighestSentChanged, c, socket));
    }
    if (g_cwndTrace.is_open())
    {
        socket->TraceConnectWithoutContext("CongestionWindow",
                                           MakeBoundCallback(&WindowChanged, c, "cwnd"));
        socket->TraceConnectWithoutContext("SlowStartThreshold",
                                           MakeBoundCallback(&WindowChanged, c, "ssthresh"));
        socket->TraceConnectWithoutContext("Tx", MakeBoundCallback(&SegmentSent, c));
    }
}

// --- counters ---

uint64_t g_bottleneckDrops = 0;  // the router's queue toward the client was full
uint64_t g_uplinkQueueDrops = 0; // the client's queue toward the router was full
uint64_t g_otherDrops = 0;       // any other queue (should stay 0)
uint64_t g_downLossDrops = 0;
uint64_t g_upLossDrops = 0;
uint64_t g_downPackets = 0;


// --link-log: each direction's packets from when its queue takes them to their receipt.
struct LinkLog
{
    std::string direction;
    std::deque<int64_t> queued; // taken by the queue, not yet started
    std::deque<std::pair<int64_t, int64_t>> inFlight; // started: queued, left (-1: not yet)
    std::ofstream* out = nullptr;
};

std::ofstream g_linkLog;

void
LinkLogQueued(LinkLog* log, Ptr<const Packet>)
{
    log->queued.push_back(Simulator::Now().GetNanoSeconds());
}

void
LinkLogStarted(LinkLog* log, Ptr<const Packet>)
{
    if (log->queued.empty())
    {
        Fail("internal: --link-log: a packet started that its queue never took");
    }
    log->inFlight.push_back({log->queued.front(), -1});
    log->queued.pop_front();
}

void
LinkLogLeft(LinkLog* log, Ptr<const Packet>)
{
    for (auto& packet : log->inFlight)
    {
        if (packet.second < 0)
        {
            packet.second = Simulator::Now().GetNanoSeconds();
            return;
        }
    }
    Fail("internal: --link-log: a packet ended that never started");
}

void
LinkLogReceived(LinkLog* log, bool arrived, Ptr<const Packet> packet)
{
    if (log->inFlight.empty() || log->inFlight.front().second < 0)
    {
        Fail("internal: --link-log: a packet arrived that had not left");
    }
    auto [queued, left] = log->inFlight.front();
    log->inFlight.pop_front();
    *log->out << log->direction << "," << queued << "," << left << ",";
    if (arrived)
    {
        *log->out << Simulator::Now().GetNanoSeconds();
    }
    *log->out << "," << packet->GetSize() - PppHeader().GetSerializedSize() << "\n";
}

void
LogLink(LinkLog& log, const char* direction, Ptr<PointToPointNetDevice> from,
        Ptr<PointToPointNetDevice> to)
{
    log.direction = direction;
    log.out = &g_linkLog;
    bool ok =
        from->GetQueue()->TraceConnectWithoutContext("Enqueue", MakeBoundCallback(&LinkLogQueued, &log)) &&
        from->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&LinkLogStarted, &log)) &&
        from->TraceConnectWithoutContext("PhyTxEnd", MakeBoundCallback(&LinkLogLeft, &log)) &&
        to->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&LinkLogReceived, &log, true)) &&
        to->TraceConnectWithoutContext("PhyRxDrop", MakeBoundCallback(&LinkLogReceived, &log, false));
    if (!ok)
    {
        Fail("internal: --link-log: no trace source");
    }
}

std::string
Millis(int64_t micros)
{
    char buffer[32];
    std::snprintf(buffer,
                  sizeof buffer,
                  "%lld.%03lld",
                  static_cast<long long>(micros / 1000),
                  static_cast<long long>(micros % 1000));
    return buffer;
}

std::string
MillisOfTime(Time t)
{
    int64_t ns = t.GetNanoSeconds();
    int64_t micros = (ns + 500) / 1000; // rounded to the microsecond
    return Millis(micros);
}

void
Usage()
{
    std::fprintf(stderr,
                 "usage: replay --log LOG.csv --network NET.json [--seed N] [--horizon-s S] "
                 "[--out FILE] [--cwnd-trace FILE] [--link-log FILE]\n");
    std::exit(2);
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string logPath;
    std::string networkPath;
    std::string outPath;
    std::string cwndPath;
    std::string linkLogPath;
    uint64_t seed = 1;
    double horizonS = 120;
    for (int a = 1; a < argc; ++a)
    {
        std::string arg = argv[a];
        auto value = [&]() -> std::string {
            if (a + 1 >= argc)
            {
                Fail(arg + " needs a value");
            }
            return argv[++a];
        };
        if (arg == "--log")
        {
            logPath = value();
        }
        else if (arg == "--network")
        {
            networkPath = value();
        }
        else if (arg == "--out")
        {
            outPath = value();
        }
        else if (arg == "--cwnd-trace")
        {
            cwndPath = value();
        }
        else if (arg == "--link-log")
        {
            linkLogPath = value();
        }
        else if (arg == "--seed")
        {
            std::string v = value();
            if (!ParseWhole(v, 1, 1ULL << 62, seed))
            {
                Fail("--seed: expected a whole number from 1, found \"" + v + "\"");
            }
        }
        else if (arg == "--horizon-s")
        {
            std::string v = value();
            char* end = nullptr;
            horizonS = std::strtod(v.c_str(), &end);
            if (*end != '\0' || !(horizonS >= 0 && horizonS <= 1e6))
            {
                Fail("--horizon-s: expected seconds, found \"" + v + "\"");
            }
        }
        else if (arg == "--help" || arg == "-h")
        {
            Usage();
        }
        else
        {
            Fail("unknown argument \"" + arg + "\"");
        }
    }
    if (logPath.empty() || networkPath.empty())
    {
        Usage();
    }
    auto wallStart = std::chrono::steady_clock::now();

    g_net = ReadNetwork(networkPath);
    Log log = ReadLog(logPath);
    g_requests = std::move(log.requests);
    if (g_net.slowStartAfterIdle)
    {
        Warn(networkPath + ": slowStartAfterIdle is true: ns-3 cannot reproduce it (its TCP "
                           "never restarts slow start after idle)");
    }
    if (g_net.cubicPausesWhenIdle)
    {
        Warn(networkPath + ": cubicPausesWhenIdle is true or missing: ns-3 cannot reproduce it "
                           "(its CUBIC clock runs through idle)");
    }
    if (g_net.recoveryTimeoutKeepsThreshold)
    {
        Warn(networkPath + ": recoveryTimeoutKeepsThreshold is true or missing: ns-3 cannot "
                           "reproduce it (a timeout in fast recovery takes its threshold from "
                           "what is in flight)");
    }
    g_h2 = g_net.http == "2";
    if (g_net.http != "1.1" && !g_h2)
    {
        Warn(networkPath + ": http \"" + g_net.http +
             "\": ns-3 replays HTTP/1.1 (one response at a time per connection)");
    }

    // Connections: the log's numbers, split where a row opens a connection again.
    {
        std::map<long, size_t> live; // logged number -> current internal connection
        std::vector<size_t> order(g_requests.size());
        for (size_t i = 0; i < order.size(); ++i)
        {
            order[i] = i;
        }
        // HTTP/2: at one instant the request that opened a connection came first, the streams
        // that joined it after.
        std::stable_sort(order.begin(), order.end(), [](size_t a, size_t b) {
            const Request& x = g_requests[a];
            const Request& y = g_requests[b];
            if (x.timeUs != y.timeUs)
            {
                return x.timeUs < y.timeUs;
            }
            return g_h2 && x.newConnection && !y.newConnection;
        });
        std::map<long, bool> closedByCancel;
        size_t reopened = 0;
        size_t orphans = 0;
        for (size_t i : order)
        {
            Request& r = g_requests[i];
            auto it = live.find(r.connection);
            bool open;
            if (log.oldFormat)
            {
                open = it == live.end() || closedByCancel[r.connection];
                r.newConnection = open;
            }
            else
            {
                bool gone = it == live.end() || closedByCancel[r.connection];
                open = r.newConnection || gone;
                if (r.newConnection && it != live.end())
                {
                    ++reopened;
                }
                if (!r.newConnection && gone)
                {
                    ++orphans;
                }
            }
            if (open)
            {
                Conn conn;
                conn.logged = r.connection;
                conn.port = r.kind == "api" ? kApiPort : kImagePort;
                g_conns.push_back(conn);
                live[r.connection] = g_conns.size() - 1;
                closedByCancel[r.connection] = false;
            }
            r.conn = live[r.connection];
            if (!open && !g_conns[r.conn].requests.empty())
            {
                const Request& before = g_requests[g_conns[r.conn].requests.back()];
                r.idleSinceUs = before.timeUs + before.modelUs;
            }
            g_conns[r.conn].requests.push_back(i);
            if (r.status == 499 && !g_h2) // HTTP/2 resets the stream and keeps the connection
            {
                closedByCancel[r.connection] = true;
            }
        }
        if (reopened)
        {
            Warn(logPath + ": " + std::to_string(reopened) +
                 " rows open a connection number already opened: replayed as new connections");
        }
        if (orphans)
        {
            Warn(logPath + ": " + std::to_string(orphans) +
                 " rows reuse a connection no earlier row opened (or one a cancel closed): "
                                 "each opens it");
        }
    }

    // --- ns-3 configuration (README: every setting and why) ---
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpCubic::GetTypeId()));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(g_net.mss));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(g_net.initialWindow));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(kSocketBufferBytes));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(kSocketBufferBytes));
    Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(Seconds(1)));  // Linux: 1 s
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200))); // Linux
    // A connection is given up after 15 retransmission timeouts in a row, Linux's tcp_retries2
    // (ns-3's default, 6, drops it within seconds of a recorded link's silence; decision 034).
    Config::SetDefault("ns3::TcpSocket::DataRetries", UintegerValue(15));
    // A receiver's delayed ACK waits at most 40 ms, Linux's minimum (ns-3's default, 200 ms,
    // is longer than the sender's 200 ms minimum RTO: an odd last segment's ACK then comes
    // after a spurious timeout that collapses the window to one segment).
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(40)));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(true));

    NodeContainer nodes;
    nodes.Create(3);
    Ptr<Node> server = nodes.Get(0);
    Ptr<Node> router = nodes.Get(1);
    g_clientNode = nodes.Get(2);

    // Every device's MTU fits a full segment: the MSS, 12 bytes of timestamps, 40 of headers
    // (1,500 for the usual 1,448), so nothing is fragmented.
    UintegerValue mtu(g_net.mss + 52);
    PointToPointHelper fast;
    fast.SetDeviceAttribute("DataRate", StringValue(kFastRate));
    fast.SetDeviceAttribute("Mtu", mtu);
    fast.SetChannelAttribute("Delay", TimeValue(Seconds(0)));
    fast.SetQueue("ns3::DropTailQueue<Packet>",
                  "MaxSize",
                  QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, kFastQueuePackets)));
    NetDeviceContainer fastDevices = fast.Install(server, router);

    Bottleneck bottleneck = BuildBottleneck(g_net, router, g_clientNode, mtu);
    NetDeviceContainer edge = bottleneck.devices;
    Ptr<PointToPointNetDevice> routerDown = bottleneck.down;
    Ptr<PointToPointNetDevice> clientUp = bottleneck.up;

    InternetStackHelper stack;
    stack.Install(nodes);
    Ipv4AddressHelper addresses;
    addresses.SetBase("10.0.0.0", "255.255.255.252");
    Ipv4InterfaceContainer fastIfaces = addresses.Assign(fastDevices);
    addresses.SetBase("10.0.1.0", "255.255.255.252");
    addresses.Assign(edge);
    g_serverAddress = fastIfaces.GetAddress(0);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    // Ipv4AddressHelper::Assign installed ns-3's default queue disc (FqCoDel) on every device:
    // remove it, so the devices' drop-tail queues are the only buffers.
    TrafficControlHelper tch;
    tch.Uninstall(fastDevices);
    tch.Uninstall(edge);
    for (uint32_t n = 0; n < nodes.GetN(); ++n)
    {
        Ptr<TrafficControlLayer> tc = nodes.Get(n)->GetObject<TrafficControlLayer>();
        for (uint32_t d = 0; d < nodes.Get(n)->GetNDevices(); ++d)
        {
            if (tc->GetRootQueueDiscOnDevice(nodes.Get(n)->GetDevice(d)))
            {
                Fail("internal: a queue disc is still installed");
            }
        }
    }

    AddLoss(g_net, bottleneck);

    // Counters: every place a packet can be dropped.
    CountEach(routerDown->GetQueue(), "Drop", &g_bottleneckDrops);
    CountEach(clientUp->GetQueue(), "Drop", &g_uplinkQueueDrops);
    for (uint32_t d = 0; d < 2; ++d)
    {
        CountEach(DynamicCast<PointToPointNetDevice>(fastDevices.Get(d))->GetQueue(), "Drop", &g_otherDrops);
    }
    // With no queue disc, the traffic-control layer drops a packet when the device's queue is
    // stopped (full) instead of handing it over ("TcDrop"): that is the same drop-tail buffer.
    CountEach(router->GetObject<TrafficControlLayer>(), "TcDrop", &g_bottleneckDrops);
    CountEach(g_clientNode->GetObject<TrafficControlLayer>(), "TcDrop", &g_uplinkQueueDrops);
    CountEach(server->GetObject<TrafficControlLayer>(), "TcDrop", &g_otherDrops);
    CountEach(clientUp, "PhyRxDrop", &g_downLossDrops);
    CountEach(routerDown, "PhyRxDrop", &g_upLossDrops);
    CountEach(clientUp, "MacRx", &g_downPackets);

    // The server: both hosts on one node.
    for (uint16_t port : {kImagePort, kApiPort})
    {
        Ptr<Socket> listener = Socket::CreateSocket(server, TcpSocketFactory::GetTypeId());
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        listener->Listen();
        listener->SetAcceptCallback(MakeCallback(&AcceptRequest), MakeCallback(&Accepted));
    }

    static LinkLog downLog, upLog;
    if (!linkLogPath.empty())
    {
        g_linkLog.open(linkLogPath);
        if (!g_linkLog)
        {
            Fail(linkLogPath + ": cannot write the file");
        }
        g_linkLog << "direction,queued_ns,left_ns,arrived_ns,ip_bytes\n";
        LogLink(downLog, "down", routerDown, clientUp);
        LogLink(upLog, "up", clientUp, routerDown);
    }

    if (!cwndPath.empty())
    {
        g_cwndTrace.open(cwndPath);
        if (!g_cwndTrace)
        {
            Fail(cwndPath + ": cannot write the file");
        }
        g_cwndTrace << "time_s,connection,what,bytes\n";
        routerDown->GetQueue()->TraceConnectWithoutContext("Drop", MakeBoundCallback(&SegmentDropped, true));
        router->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext("TcDrop", MakeBoundCallback(&SegmentDropped, false));
    }

    // Requests sent at the same instant go out in the order FeedBench sent them. The log lists
    // rows in order of completion, so the order is the model's own choice of connection: each
    // request takes the idle connection that became idle last (a response ended on it as
    // logged), and when none is idle opens one, numbered in the order opened. So at one instant:
    // requests on reused connections first, the most recently idle first, then those opening
    // connections by number. Over HTTP/2 a request joins its host's one connection: at one
    // instant the one that opened it first, then the others in the log's order.
    std::vector<size_t> sendOrder(g_requests.size());
    for (size_t i = 0; i < sendOrder.size(); ++i)
    {
        sendOrder[i] = i;
    }
    std::stable_sort(sendOrder.begin(), sendOrder.end(), [](size_t a, size_t b) {
        const Request& x = g_requests[a];
        const Request& y = g_requests[b];
        if (x.timeUs != y.timeUs)
        {
            return x.timeUs < y.timeUs;
        }
        if (g_h2)
        {
            return x.newConnection && !y.newConnection;
        }
        if (x.newConnection != y.newConnection)
        {
            return !x.newConnection;
        }
        if (!x.newConnection && x.idleSinceUs != y.idleSinceUs)
        {
            return x.idleSinceUs > y.idleSinceUs;
        }
        return x.connection < y.connection;
    });
    int64_t endUs = 0;
    for (size_t i : sendOrder)
    {
        const Request& r = g_requests[i];
        Simulator::Schedule(MicroSeconds(r.timeUs), &RequestTime, i);
        if (r.status == 499)
        {
            Simulator::Schedule(MicroSeconds(r.timeUs + r.modelUs), &Cancel, i);
        }
        endUs = std::max(endUs, r.timeUs + r.modelUs);
    }
    Time horizon = MicroSeconds(endUs) + Seconds(horizonS);
    Simulator::Stop(horizon);
    Simulator::Run();

    std::ofstream file;
    if (!outPath.empty())
    {
        file.open(outPath);
        if (!file)
        {
            Fail(outPath + ": cannot write the file");
        }
    }
    std::ostream& out = outPath.empty() ? std::cout : file;
    out << "row,time_ms,kind,status,connection,new_connection,bytes,model_ms,ns3_ms,completed,"
           "sent_ms\n";
    size_t incomplete = 0;
    for (const Request& r : g_requests)
    {
        bool done = r.done;
        if (!done && r.status != 499)
        {
            ++incomplete;
        }
        out << r.row << "," << r.timeText << "," << r.kind << "," << r.status << ","
            << r.connection << "," << (r.newConnection ? 1 : 0) << "," << r.bytes << ","
            << r.modelText << "," << (done ? MillisOfTime(r.doneAt - MicroSeconds(r.timeUs)) : "")
            << "," << (done ? 1 : 0) << "," << (r.sent ? MillisOfTime(r.sentAt) : "") << "\n";
    }
    out.flush();
    g_linkLog.close();
    Simulator::Destroy();

    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    std::fprintf(stderr,
                 "info: %s seed %llu: %zu requests on %zu connections, %zu incomplete; "
                 "%llu packets reached the client; drops: %llu bottleneck queue, %llu uplink "
                 "queue, %llu other, %llu downlink loss, %llu uplink loss; %.2f s wall\n",
                 g_net.name.c_str(),
                 static_cast<unsigned long long>(seed),
                 g_requests.size(),
                 g_conns.size(),
                 incomplete,
                 static_cast<unsigned long long>(g_downPackets),
                 static_cast<unsigned long long>(g_bottleneckDrops),
                 static_cast<unsigned long long>(g_uplinkQueueDrops),
                 static_cast<unsigned long long>(g_otherDrops),
                 static_cast<unsigned long long>(g_downLossDrops),
                 static_cast<unsigned long long>(g_upLossDrops),
                 wall);
    return 0;
}
