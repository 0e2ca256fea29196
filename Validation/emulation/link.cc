// link: a FeedBench network file's link, run by ns-3 in real time between two network
// namespaces, so that the kernel's own TCP, TLS and HTTP/2 run over it (README.md here).
//
//   link --network NET.json --client NS:TAP --server NS:TAP [--seed N]
//
// NS:TAP names a network namespace (`ip netns`) and the TAP device in it (`ip tuntap add
// mode tap`), which the harness (emulated-link) has made, addressed and routed: the client's
// 10.77.1.1/24 with its gateway at 10.77.1.2, the server's 10.77.2.1/24 with 10.77.2.2. This
// program opens each TAP from inside its namespace and gives it to an ns-3 FdNetDevice on a
// router node holding the gateway's address; the two routers are joined by the network file's
// bottleneck (../ns3/bottleneck.h, as the replay builds it): the downlink's rate or recording
// from the server's router to the client's, the uplink's back, one delay for both directions
// (the mean of the two one-way delays), the drop-tail queue of bufferPackets, random loss seeded
// by --seed. No other buffer: no queue disc on any ns-3 device.
//
// It runs until SIGTERM or SIGINT, then prints one "info: ..." line: the packets each way, the
// drops, and how late the real-time simulator ran (a probe every millisecond: how far the wall
// clock was past the event's time; p50, p99 and the largest). "ready" on stderr says the link
// is up. A rate past kFastestBps is refused: past it this machine's real-time ns-3 falls behind
// (README.md here, "How fast it keeps up"). Bad input: one "error: ..." line, exit status 2.

#include "ns3/core-module.h"
#include "ns3/fd-net-device-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include "../ns3/bottleneck.h"
#include "../ns3/network_file.h"

#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>

namespace
{

// The fastest direction this program takes, bits a second. Measured on a 2-core machine with
// one bulk TCP download through the fixed link (README.md here): at 200 Mbit/s it moved 189
// Mbit/s with the simulator's p99 lateness 2.2 ms; at 400 Mbit/s, 328 Mbit/s. A live session
// shares the cores with bench serve and the live run, so half of what kept up.
constexpr double kFastestBps = 100e6;

// A recording's fastest second: its largest count of opportunities in any 1,000 ms, as bits.
double
FastestSecondBps(const DeliveryTrace& trace)
{
    size_t most = 0;
    size_t from = 0;
    for (size_t to = 0; to < trace.ms.size(); ++to)
    {
        while (trace.ms[to] - trace.ms[from] >= 1000)
        {
            ++from;
        }
        most = std::max(most, to - from + 1);
    }
    return most * DeliveryTrace::kOpportunityBytes * 8.0;
}

void
CheckHeld(const std::string& path, const char* field, double bps)
{
    if (bps > kFastestBps)
    {
        std::ostringstream m;
        m << path << ": \"" << field << "\" " << bps / 1e6 << " Mbit/s: the emulated link keeps up with "
          << kFastestBps / 1e6 << " Mbit/s at most on this machine";
        Fail(m.str());
    }
}

// "NS:TAP" split at its colon.
std::pair<std::string, std::string>
NamespaceAndTap(const std::string& text, const char* option)
{
    size_t colon = text.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == text.size() ||
        text.size() - colon - 1 >= IFNAMSIZ)
    {
        Fail(std::string(option) + " " + text + ": expected NAMESPACE:TAP");
    }
    return {text.substr(0, colon), text.substr(colon + 1)};
}

// The TAP device `tap` in network namespace `ns`, opened from inside it (a TAP is found by
// name in the opener's namespace; the descriptor then works from any).
int
OpenTap(const std::string& ns, const std::string& tap)
{
    int home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    int there = open(("/var/run/netns/" + ns).c_str(), O_RDONLY | O_CLOEXEC);
    if (home < 0 || there < 0 || setns(there, CLONE_NEWNET) != 0)
    {
        Fail("network namespace " + ns + ": cannot enter it (" + std::strerror(errno) + ")");
    }
    int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
    ifreq request{};
    request.ifr_flags = IFF_TAP | IFF_NO_PI;
    std::strncpy(request.ifr_name, tap.c_str(), IFNAMSIZ - 1);
    if (fd < 0 || ioctl(fd, TUNSETIFF, &request) != 0)
    {
        Fail("TAP " + tap + " in " + ns + ": cannot open it (" + std::strerror(errno) + ")");
    }
    if (setns(home, CLONE_NEWNET) != 0)
    {
        Fail(std::string("cannot return to this program's network namespace (") + std::strerror(errno) + ")");
    }
    close(home);
    close(there);
    return fd;
}

volatile std::sig_atomic_t g_stopRequested = 0;

void
RequestStop(int)
{
    g_stopRequested = 1;
}

// How late the simulator runs: every millisecond, the wall clock past the event's time.
std::chrono::steady_clock::time_point g_wallStart;
std::vector<int64_t> g_lateNs;
bool g_announced = false;

void
Tick()
{
    auto wall = std::chrono::steady_clock::now() - g_wallStart;
    g_lateNs.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(wall).count() -
                       Simulator::Now().GetNanoSeconds());
    if (!g_announced)
    {
        std::fprintf(stderr, "ready\n");
        std::fflush(stderr);
        g_announced = true;
    }
    if (g_stopRequested)
    {
        Simulator::Stop();
        return;
    }
    Simulator::Schedule(MilliSeconds(1), &Tick);
}

uint64_t g_downPackets = 0;
uint64_t g_upPackets = 0;
uint64_t g_queueDrops = 0;
uint64_t g_lossDrops = 0;


// An FdNetDevice on `node` reading and writing the TAP `fd`, with MTU `mtu`.
Ptr<FdNetDevice>
TapDevice(Ptr<Node> node, int fd, UintegerValue mtu)
{
    FdNetDeviceHelper helper;
    auto device = DynamicCast<FdNetDevice>(helper.Install(node).Get(0));
    device->SetFileDescriptor(fd);
    device->SetAddress(Mac48Address::Allocate());
    device->SetMtu(static_cast<uint16_t>(mtu.Get()));
    return device;
}


} // namespace

int
main(int argc, char* argv[])
{
    // Stopped by SIGTERM or SIGINT. A parent may have left them blocked (a process spawned by a
    // multi-threaded one inherits its mask): unblocked, or SIGTERM would never stop the link.
    sigset_t stops;
    sigemptyset(&stops);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGINT);
    pthread_sigmask(SIG_UNBLOCK, &stops, nullptr);
    std::signal(SIGTERM, RequestStop);
    std::signal(SIGINT, RequestStop);

    std::string networkPath;
    std::string client;
    std::string server;
    uint64_t seed = 1;
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (i + 1 >= argc)
        {
            Fail(arg + ": expected a value after it (link --network NET.json --client NS:TAP --server NS:TAP [--seed N])");
        }
        std::string value = argv[++i];
        if (arg == "--network")
            networkPath = value;
        else if (arg == "--client")
            client = value;
        else if (arg == "--server")
            server = value;
        else if (arg == "--seed")
        {
            if (!ParseWhole(value, 1, 1'000'000'000, seed))
            {
                Fail("--seed " + value + ": expected a whole number from 1");
            }
        }
        else
            Fail(arg + ": unknown option (link --network NET.json --client NS:TAP --server NS:TAP [--seed N])");
    }
    if (networkPath.empty() || client.empty() || server.empty())
    {
        Fail("expected --network, --client and --server");
    }
    Network net = ReadNetwork(networkPath);
    CheckHeld(networkPath, "bitsPerSecond", net.downTrace ? FastestSecondBps(*net.downTrace) : net.downBps);
    CheckHeld(networkPath, "uplinkBitsPerSecond", net.upTrace ? FastestSecondBps(*net.upTrace) : net.upBps);
    auto [clientNs, clientTap] = NamespaceAndTap(client, "--client");
    auto [serverNs, serverTap] = NamespaceAndTap(server, "--server");
    int clientFd = OpenTap(clientNs, clientTap);
    int serverFd = OpenTap(serverNs, serverTap);

    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RealtimeSimulatorImpl"));
    // The kernels check every IP header's checksum: ns-3 must write real ones as it forwards.
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);
    // ns-3 delays each ARP request by up to 10 ms (RequestJitter, against broadcast storms on
    // shared media); each router asks once, on a link of its own: no jitter, or a session's
    // first handshake takes up to 20 ms more than its round trip.
    Config::SetDefault("ns3::ArpL3Protocol::RequestJitter", StringValue("ns3::ConstantRandomVariable[Constant=0.0]"));

    NodeContainer routers;
    routers.Create(2);
    Ptr<Node> serverSide = routers.Get(0);
    Ptr<Node> clientSide = routers.Get(1);
    UintegerValue mtu(net.mss + 52); // a full segment with timestamps, as the replay's
    Bottleneck bottleneck = BuildBottleneck(net, serverSide, clientSide, mtu);
    Ptr<FdNetDevice> clientDevice = TapDevice(clientSide, clientFd, mtu);
    Ptr<FdNetDevice> serverDevice = TapDevice(serverSide, serverFd, mtu);

    InternetStackHelper stack;
    stack.Install(routers);
    Ipv4AddressHelper addresses;
    addresses.SetBase("10.77.0.0", "255.255.255.252");
    addresses.Assign(bottleneck.devices);
    addresses.SetBase("10.77.1.0", "255.255.255.0", "0.0.0.2");
    addresses.Assign(NetDeviceContainer(clientDevice));
    addresses.SetBase("10.77.2.0", "255.255.255.0", "0.0.0.2");
    addresses.Assign(NetDeviceContainer(serverDevice));
    Ipv4StaticRoutingHelper routing;
    routing.GetStaticRouting(clientSide->GetObject<Ipv4>())
        ->AddNetworkRouteTo(Ipv4Address("10.77.2.0"), Ipv4Mask("255.255.255.0"), Ipv4Address("10.77.0.1"), 1);
    routing.GetStaticRouting(serverSide->GetObject<Ipv4>())
        ->AddNetworkRouteTo(Ipv4Address("10.77.1.0"), Ipv4Mask("255.255.255.0"), Ipv4Address("10.77.0.2"), 1);
    // Ipv4AddressHelper::Assign installs ns-3's default queue disc where it can: remove every
    // one, so the bottleneck's drop-tail queues are the only buffers.
    TrafficControlHelper tch;
    for (Ptr<Node> node : {serverSide, clientSide})
    {
        auto tc = node->GetObject<TrafficControlLayer>();
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            if (tc->GetRootQueueDiscOnDevice(node->GetDevice(d)))
            {
                tch.Uninstall(node->GetDevice(d));
            }
        }
    }
    AddLoss(net, bottleneck);
    CountEach(bottleneck.up, "MacRx", &g_downPackets);
    CountEach(bottleneck.down, "MacRx", &g_upPackets);
    CountEach(bottleneck.down->GetQueue(), "Drop", &g_queueDrops);
    CountEach(bottleneck.up->GetQueue(), "Drop", &g_queueDrops);
    CountEach(serverSide->GetObject<TrafficControlLayer>(), "TcDrop", &g_queueDrops);
    CountEach(clientSide->GetObject<TrafficControlLayer>(), "TcDrop", &g_queueDrops);
    CountEach(bottleneck.up, "PhyRxDrop", &g_lossDrops);
    CountEach(bottleneck.down, "PhyRxDrop", &g_lossDrops);

    g_wallStart = std::chrono::steady_clock::now();
    Simulator::Schedule(Seconds(0), &Tick);
    Simulator::Run();
    double seconds = Simulator::Now().GetSeconds();
    Simulator::Destroy();

    std::sort(g_lateNs.begin(), g_lateNs.end());
    auto late = [](double q) {
        return g_lateNs.empty() ? 0.0 : g_lateNs[static_cast<size_t>(q * (g_lateNs.size() - 1))] / 1e6;
    };
    std::fprintf(stderr,
                 "info: %s: %.1f s; %llu packets down, %llu up; drops: %llu queue, %llu loss; "
                 "late ms: p50 %.3f p99 %.3f max %.3f\n",
                 net.name.c_str(),
                 seconds,
                 static_cast<unsigned long long>(g_downPackets),
                 static_cast<unsigned long long>(g_upPackets),
                 static_cast<unsigned long long>(g_queueDrops),
                 static_cast<unsigned long long>(g_lossDrops),
                 late(0.5),
                 late(0.99),
                 late(1.0));
    return 0;
}
