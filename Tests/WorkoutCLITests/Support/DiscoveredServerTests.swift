import Testing
@testable import workout

/// Reading `avahi-browse --resolve --terminate --parsable` output.
@Suite("Servers found by avahi-browse")
struct DiscoveredServerTests {
    static let output = """
        +;eth0;IPv6;Workout\\032on\\032nas;_workout._tcp;local
        +;eth0;IPv4;Workout\\032on\\032nas;_workout._tcp;local
        =;eth0;IPv6;Workout\\032on\\032nas;_workout._tcp;local;nas.local;fe80::1;7420;"txtvers=1" "protocol=1"
        =;eth0;IPv4;Workout\\032on\\032nas;_workout._tcp;local;nas.local;192.168.1.10;7420;"txtvers=1" "protocol=1"
        =;wlan0;IPv4;Workout\\032on\\032nas;_workout._tcp;local;nas.local;192.168.1.10;7420;"txtvers=1"
        =;eth0;IPv4;Gym\\059\\092box;_workout._tcp;local;gym.local;192.168.1.11;7500;
        =;eth0;IPv4;A\\032printer;_ipp._tcp;local;printer.local;192.168.1.12;631;
        =;eth0;IPv4;Broken;_workout._tcp;local;broken.local;192.168.1.13;notaport;
        """

    @Test("Resolved lines of _workout._tcp, unescaped, each service once, IPv4 first")
    func parse() {
        let servers = DiscoveredServer.parse(avahiBrowseOutput: Self.output)
        #expect(servers.map(\.name) == ["Workout on nas", "Gym;\\box"])
        #expect(servers[0].server == "nas.local:7420")
        #expect(servers[0].address == "192.168.1.10" && servers[0].family == "IPv4" && servers[0].interface == "eth0")
        #expect(servers[1].server == "gym.local:7500")
        #expect(DiscoveredServer.parse(avahiBrowseOutput: "").isEmpty)
    }
}
