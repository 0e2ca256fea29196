// bottleneck.h: the link between a router and a client as FeedBench's network file gives it,
// in ns-3: each direction's rate or recording, the delay, the drop-tail queue and random loss.
// The replay (replay.cc) puts it between its router and its simulated client; the emulated
// link (../emulation/link.cc) between two routers that carry the kernel's packets.
#pragma once

#include "network_file.h"

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <deque>

namespace
{

using namespace ns3;

// --- recorded links ---
//
// A recorded direction's device (Mahimahi's mm-link semantics): each opportunity lets up to
// 1,500 bytes of what is queued at that instant leave, a packet's IP bytes (the 2-byte PPP
// header is not counted) taken as a byte stream, so a packet can take the rest of an
// opportunity a packet before it left unused and go on into the next; an opportunity that
// finds nothing queued is lost; a packet that arrives in a silence, or at an opportunity's very
// instant (mm-link serves the opportunities due before it queues what arrives), waits for the
// next one. The device stays a PointToPointNetDevice with its drop-tail queue: when a packet
// starts (PhyTxBegin, which fires before the device reads its DataRate and InterframeGap), the
// hook works out the opportunity its last byte leaves at, T, and sets the device's DataRate so
// that the transmission lasts as close to T - now as an integer rate allows (never longer), and
// the gap left (under 1 ns for a wait of a few ms, microseconds over seconds of silence) as the
// InterframeGap and as extra delay on the channel for this packet: the device is busy until T
// exactly and the packet arrives at T + delay exactly. PointToPointChannel reads its one Delay
// when each packet starts, so every packet on the channel (either direction) sets it first: the
// base delay, plus that gap for a recorded one.
struct RecordedLink
{
    std::shared_ptr<DeliveryTrace> trace; // null: a fixed-rate device on a recorded channel
    int64_t offsetNs = 0;                 // the recording's time at the run's 0
    Ptr<PointToPointNetDevice> device;
    Ptr<PointToPointChannel> channel;
    Time baseDelay;
    std::deque<int64_t> queuedAt; // when each packet in the device's queue entered it (FIFO)
    uint64_t index = 0;  // the opportunity (from 1) the last packet's last byte left at; 0: none
    uint32_t credit = 0; // the bytes it left unused
};

Time g_channelDelay; // the Delay last set on the bottleneck channel

void
SetChannelDelay(RecordedLink* link, Time delay)
{
    if (delay != g_channelDelay)
    {
        link->channel->SetAttribute("Delay", TimeValue(delay));
        g_channelDelay = delay;
    }
}

// Every packet the device's queue takes (the device queues even the one it starts at once).
void
RecordedQueued(RecordedLink* link, Ptr<const Packet>)
{
    link->queuedAt.push_back(Simulator::Now().GetNanoSeconds());
}

void
RecordedTxBegin(RecordedLink* link, Ptr<const Packet> packet)
{
    if (!link->trace)
    {
        SetChannelDelay(link, link->baseDelay);
        return;
    }
    const DeliveryTrace& trace = *link->trace;
    int64_t now = Simulator::Now().GetNanoSeconds();
    if (link->queuedAt.empty())
    {
        Fail("internal: a recorded link's packet started that its queue never took");
    }
    int64_t queued = link->queuedAt.front();
    link->queuedAt.pop_front();
    uint32_t size = packet->GetSize();
    uint32_t bytes = size - PppHeader().GetSerializedSize();
    // A packet queued before the opportunity the one before it ended at takes what that one
    // left of it (the device was busy until then, and starts this one at that instant); any
    // other starts after every opportunity up to now (one at this very instant included).
    if (link->index == 0 || queued >= trace.TimeOf(link->index) - link->offsetNs)
    {
        link->index = trace.Through(now + link->offsetNs);
        link->credit = 0;
    }
    if (bytes <= link->credit)
    {
        link->credit -= bytes;
    }
    else
    {
        uint64_t rest = bytes - link->credit;
        uint64_t more = (rest + DeliveryTrace::kOpportunityBytes - 1) / DeliveryTrace::kOpportunityBytes;
        link->index += more;
        link->credit = static_cast<uint32_t>(more * DeliveryTrace::kOpportunityBytes - rest);
    }
    int64_t wait = trace.TimeOf(link->index) - link->offsetNs - now;
    if (wait < 0)
    {
        Fail("internal: a recorded link's packet would leave before it started");
    }
    // The highest rate DataRate takes whole (its maximum overflows in the division).
    constexpr uint64_t kFastest = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    uint64_t bps = kFastest;
    if (wait > 0)
    {
        long double exact = std::ceil(static_cast<long double>(size) * 8 * 1e9L / wait);
        bps = exact >= static_cast<long double>(kFastest)
                  ? kFastest
                  : std::max<uint64_t>(1, static_cast<uint64_t>(exact));
    }
    Time tx = DataRate(bps).CalculateBytesTxTime(size);
    while (tx.GetNanoSeconds() > wait) // rounded up to the ns: a little faster
    {
        bps = bps > kFastest / 2 ? kFastest : bps + bps / 1'000'000 + 1;
        tx = DataRate(bps).CalculateBytesTxTime(size);
    }
    Time gap = NanoSeconds(wait) - tx;
    link->device->SetDataRate(DataRate(bps));
    link->device->SetInterframeGap(gap);
    SetChannelDelay(link, link->baseDelay + gap);
}

// Drives `device` by `trace` (null: only keeps the shared channel's delay right for it).
void
DriveByRecording(RecordedLink& link, Ptr<PointToPointNetDevice> device,
                 std::shared_ptr<DeliveryTrace> trace, int64_t offsetNs, Time baseDelay)
{
    link.trace = trace;
    link.offsetNs = offsetNs;
    link.device = device;
    link.channel = DynamicCast<PointToPointChannel>(device->GetChannel());
    link.baseDelay = baseDelay;
    bool ok = device->TraceConnectWithoutContext("PhyTxBegin",
                                                 MakeBoundCallback(&RecordedTxBegin, &link));
    if (trace)
    {
        ok = ok && device->GetQueue()->TraceConnectWithoutContext(
                       "Enqueue", MakeBoundCallback(&RecordedQueued, &link));
    }
    if (!ok || !link.channel)
    {
        Fail("internal: cannot drive the bottleneck device by its recording");
    }
}


// The bottleneck's two devices, as `BuildBottleneck` made them.
struct Bottleneck
{
    NetDeviceContainer devices;      // the router's, then the client's
    Ptr<PointToPointNetDevice> down; // router -> client: the downlink's rate or recording
    Ptr<PointToPointNetDevice> up;   // client -> router: the uplink's
};

// The bottleneck between `router` and `client` for `net`, every device's MTU `mtu`: the
// downlink's rate (or recording) on the router's device, the uplink's on the client's, each
// behind a drop-tail queue of bufferPackets packets; one PointToPointChannel delay for both
// directions, the mean of the two one-way delays. Once: a program has one bottleneck.
Bottleneck
BuildBottleneck(const Network& net, Ptr<Node> router, Ptr<Node> client, UintegerValue mtu)
{
    // One delay for both directions: every duration is measured at the client from something
    // the client sent, so only the round trip matters.
    double oneWayMs = (net.downDelayMs + net.upDelayMs) / 2;
    // A recorded direction starts at its recording's mean rate; each packet sets its own
    // (RecordedTxBegin).
    double downBps = net.downTrace ? net.downTrace->MeanBps() : net.downBps;
    double upBps = net.upTrace ? net.upTrace->MeanBps() : net.upBps;
    PointToPointHelper helper;
    helper.SetDeviceAttribute("DataRate", DataRateValue(DataRate(downBps)));
    helper.SetDeviceAttribute("Mtu", mtu);
    helper.SetChannelAttribute(
        "Delay",
        TimeValue(NanoSeconds(static_cast<int64_t>(std::llround(oneWayMs * 1e6)))));
    helper.SetQueue("ns3::DropTailQueue<Packet>",
                    "MaxSize",
                    QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, net.bufferPackets)));
    NetDeviceContainer edge = helper.Install(router, client);
    auto routerDown = DynamicCast<PointToPointNetDevice>(edge.Get(0));
    auto clientUp = DynamicCast<PointToPointNetDevice>(edge.Get(1));
    routerDown->SetDataRate(DataRate(downBps));
    clientUp->SetDataRate(DataRate(upBps));
    static RecordedLink recordedDown, recordedUp;
    if (net.downTrace || net.upTrace)
    {
        Time baseDelay = NanoSeconds(static_cast<int64_t>(std::llround(oneWayMs * 1e6)));
        g_channelDelay = baseDelay;
        DriveByRecording(recordedDown, routerDown, net.downTrace, net.recordingStartNs, baseDelay);
        DriveByRecording(recordedUp, clientUp, net.upTrace, net.recordingStartNs, baseDelay);
        for (auto [what, trace] : {std::pair{"downlink", net.downTrace}, std::pair{"uplink", net.upTrace}})
        {
            if (trace)
            {
                std::fprintf(stderr,
                             "info: %s recorded: %s, %zu opportunities a %.3f s period (mean "
                             "%.3f Mbit/s), from %.3f s into it\n",
                             what,
                             trace->path.c_str(),
                             trace->ms.size(),
                             trace->ms.back() / 1000.0,
                             trace->MeanBps() / 1e6,
                             net.recordingStartNs / 1e9);
            }
        }
    }
    return Bottleneck{edge, routerDown, clientUp};
}

// Random loss on `bottleneck`, on receipt: the downlink's at the client, the uplink's at the
// router, each a per-packet RateErrorModel on its own stream (0, then 1, in that order), so
// that a seed (ns-3's run number) gives the same losses.
void
AddLoss(const Network& net, const Bottleneck& bottleneck)
{
    uint64_t streams = 0;
    auto lose = [&streams](double rate, Ptr<PointToPointNetDevice> receiver) {
        if (rate <= 0)
        {
            return;
        }
        auto em = CreateObject<RateErrorModel>();
        em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
        em->SetRate(rate);
        em->AssignStreams(static_cast<int64_t>(streams++));
        receiver->SetReceiveErrorModel(em);
    };
    lose(net.loss, bottleneck.up);
    lose(net.upLoss, bottleneck.down);
}

void
CountPacket(uint64_t* counter, Ptr<const Packet>)
{
    ++*counter;
}

// Counts in `counter` every packet `object`'s trace source `source` reports (a drop, a receipt).
void
CountEach(Ptr<Object> object, const char* source, uint64_t* counter)
{
    if (!object->TraceConnectWithoutContext(source, MakeBoundCallback(&CountPacket, counter)))
    {
        Fail(std::string("internal: no trace source ") + source);
    }
}

} // namespace
