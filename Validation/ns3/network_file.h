// network_file.h: FeedBench's network file (`bench profiles --network NAME`) and its recorded
// links (Mahimahi's format) as the ns-3 programs read them: the replay (replay.cc) and the
// emulated link (../emulation/link.cc). Bad input is one "error: ..." line and exit status 2.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace
{

[[noreturn]] void
Fail(const std::string& message)
{
    std::fprintf(stderr, "error: %s\n", message.c_str());
    std::exit(2);
}

void
Warn(const std::string& message)
{
    std::fprintf(stderr, "warning: %s\n", message.c_str());
}

// A whole decimal number in [low, high], digits only.
bool
ParseWhole(const std::string& text, uint64_t low, uint64_t high, uint64_t& out)
{
    if (text.empty() || text.size() > 19)
    {
        return false;
    }
    uint64_t v = 0;
    for (char c : text)
    {
        if (c < '0' || c > '9')
        {
            return false;
        }
        v = v * 10 + (c - '0');
    }
    if (v < low || v > high)
    {
        return false;
    }
    out = v;
    return true;
}

// ---------------------------------------------------------------------------------------------
// The network file: a flat JSON object. Only the fields below are read; others are ignored.
// ---------------------------------------------------------------------------------------------
// A recorded link in Mahimahi's format (mm-link): one line per delivery opportunity, its time
// in ms from the recording's start (non-decreasing; several in one ms repeat the time); each
// opportunity lets 1,500 bytes of what is queued at that instant leave. The file repeats at
// its end, its last time being the period: opportunity i of cycle c is at c * P + t_i.
struct DeliveryTrace
{
    static constexpr uint32_t kOpportunityBytes = 1500; // one full IP packet
    static constexpr uint64_t kLongestMs = 86'400'000;  // 24 h, as FeedBench reads
    static constexpr size_t kMostOpportunities = 20'000'000;

    std::string path;
    std::vector<uint32_t> ms; // each opportunity's time, the last one the period

    int64_t PeriodNs() const
    {
        return static_cast<int64_t>(ms.back()) * 1'000'000;
    }

    // Opportunities at times up to `traceNs` (ns from the recording's start), over as many
    // periods as it spans.
    uint64_t Through(int64_t traceNs) const
    {
        if (traceNs < 0)
        {
            return 0;
        }
        int64_t cycles = traceNs / PeriodNs();
        uint32_t within = static_cast<uint32_t>((traceNs - cycles * PeriodNs()) / 1'000'000);
        uint64_t inCycle = std::upper_bound(ms.begin(), ms.end(), within) - ms.begin();
        return static_cast<uint64_t>(cycles) * ms.size() + inCycle;
    }

    // The time of opportunity `k` (from 1), in ns from the recording's start.
    int64_t TimeOf(uint64_t k) const
    {
        uint64_t cycle = (k - 1) / ms.size();
        uint64_t at = (k - 1) - cycle * ms.size();
        return (static_cast<int64_t>(ms[at]) + static_cast<int64_t>(cycle) * ms.back()) * 1'000'000;
    }

    // The mean rate over one period, bits per second.
    double MeanBps() const
    {
        return ms.size() * kOpportunityBytes * 8.0 / (ms.back() / 1000.0);
    }
};

struct Network
{
    std::string name = "network";
    double downBps = 0; // 0 when the direction is recorded
    double upBps = 0;
    std::shared_ptr<DeliveryTrace> downTrace; // a recorded direction's opportunities
    std::shared_ptr<DeliveryTrace> upTrace;
    int64_t recordingStartNs = 0; // the point of the recordings at which the run's 0 sits
    double downDelayMs = 0;
    double upDelayMs = 0;
    double loss = 0;
    double upLoss = 0;
    uint32_t bufferPackets = 50;
    uint32_t initialWindow = 10;
    uint32_t mss = 1448;
    bool slowStartAfterIdle = true;
    bool cubicPausesWhenIdle = true;
    bool recoveryTimeoutKeepsThreshold = true;
    bool tls = true;
    std::string http = "1.1";
};

struct JsonValue
{
    enum Kind
    {
        Number,
        String,
        Bool,
        Null,
        Array,
        Object
    } kind = Null;

    double number = 0;
    std::string text;
    bool flag = false;
    std::vector<JsonValue> items; // arrays only (objects are skipped)
};

class JsonReader
{
  public:
    JsonReader(const std::string& text, const std::string& source)
        : m_text(text),
          m_source(source)
    {
    }

    std::map<std::string, JsonValue> TopObject()
    {
        Space();
        Expect('{');
        auto fields = Members(0);
        Space();
        if (m_at != m_text.size())
        {
            Bad("text after the object");
        }
        return fields;
    }

  private:
    [[noreturn]] void Bad(const std::string& what) const
    {
        Fail(m_source + ": not a JSON object (" + what + " at byte " + std::to_string(m_at) +
             ")");
    }

    char Peek() const
    {
        return m_at < m_text.size() ? m_text[m_at] : '\0';
    }

    void Space()
    {
        while (m_at < m_text.size() &&
               (m_text[m_at] == ' ' || m_text[m_at] == '\n' || m_text[m_at] == '\r' ||
                m_text[m_at] == '\t'))
        {
            ++m_at;
        }
    }

    void Expect(char c)
    {
        if (Peek() != c)
        {
            Bad(std::string("expected '") + c + "'");
        }
        ++m_at;
    }

    std::string String()
    {
        Expect('"');
        std::string out;
        while (true)
        {
            if (m_at >= m_text.size())
            {
                Bad("unterminated string");
            }
            char c = m_text[m_at++];
            if (c == '"')
            {
                return out;
            }
            if (c == '\\')
            {
                if (m_at >= m_text.size())
                {
                    Bad("unterminated string");
                }
                char e = m_text[m_at++];
                if (e == 'u')
                {
                    m_at += 4; // names and values read here are ASCII; keep a placeholder
                    out += '?';
                }
                else
                {
                    out += (e == 'n' ? '\n' : e == 't' ? '\t' : e);
                }
                continue;
            }
            out += c;
        }
    }

    // The items of a list after its opening bracket, up to `close`, each read by `item`,
    // separated by commas.
    template <typename Item>
    void List(char close, Item item)
    {
        Space();
        if (Peek() == close)
        {
            ++m_at;
            return;
        }
        while (true)
        {
            item();
            Space();
            if (Peek() != ',')
            {
                Expect(close);
                return;
            }
            ++m_at;
        }
    }

    // An object's members after its '{', their values read at `depth`.
    std::map<std::string, JsonValue> Members(int depth)
    {
        std::map<std::string, JsonValue> fields;
        List('}', [&] {
            Space();
            std::string key = String();
            Space();
            Expect(':');
            fields[key] = Value(depth);
        });
        return fields;
    }

    JsonValue Value(int depth)
    {
        if (depth > 64)
        {
            Bad("nesting too deep");
        }
        Space();
        JsonValue v;
        char c = Peek();
        if (c == '"')
        {
            v.kind = JsonValue::String;
            v.text = String();
        }
        else if (c == '{')
        {
            v.kind = JsonValue::Object;
            ++m_at;
            Members(depth + 1); // nested objects are checked, not kept: no field has one
        }
        else if (c == '[')
        {
            v.kind = JsonValue::Array;
            ++m_at;
            List(']', [&] { v.items.push_back(Value(depth + 1)); });
        }
        else if (m_text.compare(m_at, 4, "true") == 0)
        {
            v.kind = JsonValue::Bool;
            v.flag = true;
            m_at += 4;
        }
        else if (m_text.compare(m_at, 5, "false") == 0)
        {
            v.kind = JsonValue::Bool;
            m_at += 5;
        }
        else if (m_text.compare(m_at, 4, "null") == 0)
        {
            m_at += 4;
        }
        else
        {
            size_t start = m_at;
            while (m_at < m_text.size() && std::string("+-0123456789.eE").find(m_text[m_at]) !=
                                               std::string::npos)
            {
                ++m_at;
            }
            if (start == m_at)
            {
                Bad("unexpected character");
            }
            std::string digits = m_text.substr(start, m_at - start);
            char* end = nullptr;
            v.number = std::strtod(digits.c_str(), &end);
            if (*end != '\0' || !std::isfinite(v.number))
            {
                Bad("bad number");
            }
            v.kind = JsonValue::Number;
        }
        return v;
    }

    const std::string& m_text;
    std::string m_source;
    size_t m_at = 0;
};

std::string
ReadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        Fail(path + ": cannot read the file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The recording at `path` (as the network file names it; relative to the file's folder),
// `source` naming the network file and its field for errors. Refused in one line: a file that
// cannot be read, a line that is not a whole number of ms up to 24 h, a time earlier than the
// line before's, no opportunity, or none after 0. Blank lines (and spaces around a number) are
// skipped, as FeedBench reads the format.
std::shared_ptr<DeliveryTrace>
ReadTrace(const std::string& path, const std::string& networkPath, const std::string& field)
{
    std::string resolved = path;
    if (path.empty() || path[0] != '/')
    {
        size_t slash = networkPath.rfind('/');
        if (slash != std::string::npos)
        {
            resolved = networkPath.substr(0, slash + 1) + path;
        }
    }
    std::string where = networkPath + ": \"" + field + "\" " + resolved;
    std::ifstream in(resolved, std::ios::binary);
    if (path.empty() || !in)
    {
        Fail(where + ": cannot read the recording");
    }
    auto trace = std::make_shared<DeliveryTrace>();
    trace->path = resolved;
    std::string line;
    size_t lineNumber = 0;
    while (std::getline(in, line))
    {
        ++lineNumber;
        size_t start = line.find_first_not_of(" \t\r");
        if (start == std::string::npos)
        {
            continue;
        }
        size_t end = line.find_last_not_of(" \t\r") + 1;
        std::string text = line.substr(start, end - start);
        uint64_t value = 0;
        if (!ParseWhole(text, 0, DeliveryTrace::kLongestMs, value))
        {
            Fail(where + ":" + std::to_string(lineNumber) +
                 ": expected a delivery opportunity's time in whole ms from 0 to 86400000, found \"" +
                 text.substr(0, 40) + "\"");
        }
        if (!trace->ms.empty() && value < trace->ms.back())
        {
            Fail(where + ":" + std::to_string(lineNumber) + ": time " + std::to_string(value) +
                 " is earlier than the line before's " + std::to_string(trace->ms.back()));
        }
        if (trace->ms.size() == DeliveryTrace::kMostOpportunities)
        {
            Fail(where + ":" + std::to_string(lineNumber) + ": more than 20000000 opportunities");
        }
        trace->ms.push_back(static_cast<uint32_t>(value));
    }
    if (trace->ms.empty())
    {
        Fail(where + ": no delivery opportunities (an empty recording)");
    }
    if (trace->ms.back() == 0)
    {
        Fail(where + ": no time after 0 (the last time is the period: the recording must last)");
    }
    return trace;
}

Network
ReadNetwork(const std::string& path)
{
    std::string text = ReadFile(path);
    auto fields = JsonReader(text, path).TopObject();
    Network net;
    auto number = [&](const char* key, double low, double high, bool required, double& out) {
        auto it = fields.find(key);
        if (it == fields.end() || it->second.kind == JsonValue::Null)
        {
            if (required)
            {
                Fail(path + ": missing \"" + key + "\"");
            }
            return false;
        }
        const JsonValue& v = it->second;
        double value;
        if (v.kind == JsonValue::Number)
        {
            value = v.number;
        }
        else if (v.kind == JsonValue::Array && v.items.size() == 2 &&
                 v.items[0].kind == JsonValue::Number && v.items[1].kind == JsonValue::Number)
        {
            // A [min, max] range (jitter): ns-3 gets one fixed delay, the lower bound.
            value = v.items[0].number;
            if (v.items[1].number != v.items[0].number)
            {
                Warn(std::string(key) + " is a range: ns-3 replays its lower bound, no jitter");
            }
        }
        else
        {
            Fail(path + ": \"" + key + "\" must be a number");
        }
        if (!(value >= low && value <= high))
        {
            std::ostringstream m;
            m << path << ": \"" << key << "\" must be in [" << low << ", " << high << "]";
            Fail(m.str());
        }
        out = value;
        return true;
    };
    auto boolean = [&](const char* key, bool& out) {
        auto it = fields.find(key);
        if (it == fields.end() || it->second.kind == JsonValue::Null)
        {
            return;
        }
        if (it->second.kind != JsonValue::Bool)
        {
            Fail(path + ": \"" + key + "\" must be true or false");
        }
        out = it->second.flag;
    };
    auto text_field = [&](const char* key, std::string& out) {
        auto it = fields.find(key);
        if (it == fields.end() || it->second.kind == JsonValue::Null)
        {
            return;
        }
        if (it->second.kind == JsonValue::String)
        {
            out = it->second.text;
        }
        else if (it->second.kind == JsonValue::Number)
        {
            std::ostringstream s;
            s << it->second.number;
            out = s.str();
        }
        else
        {
            Fail(path + ": \"" + key + "\" must be a string");
        }
    };
    // Every field the replay uses is required: FeedBench fills a missing one from its Wi-Fi
    // profile, which this program does not know (`bench profiles` prints them all).
    text_field("name", net.name);
    // Each direction: a fixed rate, or a recording (Mahimahi's format) instead.
    auto direction = [&](const char* rateKey, const char* traceKey, double& rate,
                         std::shared_ptr<DeliveryTrace>& trace) {
        auto present = [&](const char* key) {
            auto it = fields.find(key);
            return it != fields.end() && it->second.kind != JsonValue::Null;
        };
        bool hasRate = present(rateKey);
        bool hasTrace = present(traceKey);
        if (hasRate && hasTrace)
        {
            Fail(path + ": both \"" + rateKey + "\" and \"" + traceKey +
                 "\": give one of them for this direction");
        }
        if (!hasRate && !hasTrace)
        {
            Fail(path + ": missing \"" + rateKey + "\" (or \"" + traceKey + "\")");
        }
        if (hasRate)
        {
            number(rateKey, 1000, 1e11, true, rate);
            return;
        }
        const JsonValue& v = fields.at(traceKey);
        if (v.kind != JsonValue::String || v.text.empty())
        {
            Fail(path + ": \"" + traceKey + "\" must be the path of a recording");
        }
        trace = ReadTrace(v.text, path, traceKey);
    };
    direction("bitsPerSecond", "downlinkTrace", net.downBps, net.downTrace);
    direction("uplinkBitsPerSecond", "uplinkTrace", net.upBps, net.upTrace);
    double startMs = 0;
    if (number("recordingStartMs", 0, 86'400'000, false, startMs))
    {
        if (startMs != std::floor(startMs))
        {
            Fail(path + ": \"recordingStartMs\" must be a whole number of ms");
        }
        if (!net.downTrace && !net.upTrace)
        {
            Warn(path + ": recordingStartMs without downlinkTrace or uplinkTrace: no effect");
        }
        net.recordingStartNs = static_cast<int64_t>(startMs) * 1'000'000;
    }
    number("oneWayDelayMs", 0, 60000, true, net.downDelayMs);
    number("uplinkDelayMs", 0, 60000, true, net.upDelayMs);
    number("loss", 0, 0.99, true, net.loss);
    number("uplinkLoss", 0, 0.99, true, net.upLoss);
    double value = 0;
    number("bufferPackets", 1, 1e6, true, value);
    net.bufferPackets = static_cast<uint32_t>(value);
    number("initialWindowSegments", 1, 1000, true, value);
    net.initialWindow = static_cast<uint32_t>(value);
    number("maxSegmentBytes", 100, 8960, true, value);
    net.mss = static_cast<uint32_t>(value);
    double jitter = 0;
    if (number("jitterMs", 0, 60000, false, jitter) && jitter > 0)
    {
        std::ostringstream m;
        m << path << ": jitterMs " << jitter << ": ns-3 replays the fixed oneWayDelayMs, no jitter";
        Warn(m.str());
    }
    auto required = [&](const char* key) {
        if (fields.find(key) == fields.end())
        {
            Fail(path + ": missing \"" + key + "\"");
        }
    };
    required("slowStartAfterIdle");
    required("tls");
    boolean("slowStartAfterIdle", net.slowStartAfterIdle);
    boolean("cubicPausesWhenIdle", net.cubicPausesWhenIdle);
    boolean("recoveryTimeoutKeepsThreshold", net.recoveryTimeoutKeepsThreshold);
    boolean("tls", net.tls);
    text_field("http", net.http);
    return net;
}


} // namespace
