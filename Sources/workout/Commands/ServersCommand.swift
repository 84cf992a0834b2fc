import ArgumentParser
import Foundation

/// `workout servers`: the Workout servers on the local network, as Avahi finds them.
struct ServersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "servers",
        abstract: "List the Workout servers on the local network (needs avahi-utils).",
        discussion: """
            Runs `avahi-browse --resolve --terminate --parsable _workout._tcp` and lists what it \
            finds: name, --server value (NAME.local:PORT), address. Servers advertise themselves \
            with avahi-daemon (deploy/README.md). Without avahi-browse this says so and exits 69.
            """)

    @OptionGroup var output: OutputOptions

    func run() throws {
        let servers = try Avahi.browse()
        if output.json {
            try Output.printJSON(servers)
            return
        }
        guard !servers.isEmpty else {
            Output.line("No Workout server answered on the local network. Is workoutd running there, with avahi-daemon? Otherwise give --server HOST:PORT.")
            return
        }
        var table = Table([.init("Name"), .init("Server"), .init("Address")])
        for server in servers { table.append([server.name, server.server, server.address]) }
        Output.lines(table.render())
        Output.line()
        Output.line("Sign in with: workout login --server \(servers[0].server) --email YOU")
    }
}
