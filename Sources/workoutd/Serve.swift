import ArgumentParser
import CMemory
import Dispatch
import Foundation
import Logging
import WorkoutCore
import WorkoutDashboard
import WorkoutServer
#if canImport(Glibc)
import Glibc
#endif

/// `workoutd serve` (what `workoutd` with no subcommand does): opens the household's store and
/// serves the protocol until SIGTERM or SIGINT.
///
/// The first signal shuts down gracefully: no new connections, GOAWAY to every client, calls in
/// flight finish within the grace period, the writer is flushed and the store closed. A second
/// signal exits at once; that is still safe, because every acknowledged write was committed
/// with fsync before its client heard OK.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the household on the network (the default subcommand).")

    @OptionGroup var options: DataDirectoryOptions

    @Option(help: ArgumentHelp("The address to listen on (default: $WORKOUTD_HOST, else the file's, else 127.0.0.1); \"localhost\" means 127.0.0.1 and ::1, \"::\" every interface.", valueName: "host"))
    var host: String?

    @Option(help: ArgumentHelp("The port (default: $WORKOUTD_PORT, else the file's, else 7420); 0 picks a free one.", valueName: "port"))
    var port: Int?

    @Option(help: ArgumentHelp("tls, plain (plain TCP, loopback only) or plain-network (plain TCP on every address: behind your own TLS proxy); default: $WORKOUTD_TRANSPORT, else the file's, else tls.", valueName: "transport"))
    var transport: ServeTransport?

    @Option(help: ArgumentHelp("The household's own certificate chain (PEM, the server's certificate first), served instead of the self-made key: for browsers and apps that trust only a certificate authority. Needs --tls-key.", valueName: "file"))
    var tlsCertificate: String?

    @Option(help: ArgumentHelp("The private key of --tls-certificate (PEM; not readable by every user).", valueName: "file"))
    var tlsKey: String?

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical (default: $WORKOUTD_LOG_LEVEL, else info).", valueName: "level"))
    var logLevel: String?

    func run() async throws {
        returnLargeBlocksToTheSystem()
        limitMallocArenas()
        let settings = try options.settings(host: host, port: port, transport: transport)
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw CommandFailure(.badInput, "--tls-certificate and --tls-key go together: give both, or neither for the self-made key")
        }
        if tlsCertificate != nil, settings.transport != .tls {
            throw CommandFailure(.badInput, "--tls-certificate needs --transport tls (it is \(settings.transport.rawValue))")
        }
        let levelName = logLevel ?? ProcessInfo.processInfo.environment["WORKOUTD_LOG_LEVEL"] ?? "info"
        guard let level = Logger.Level(rawValue: levelName) else {
            throw CommandFailure(.badInput, "unknown log level \(levelName)")
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "workoutd")
        var configuration = Self.serverConfiguration(settings)
        configuration.assets = Self.dashboardAssets()
        let transport = settings.transport
        configuration.allowsPlainTCP = transport == .plainNetwork
        try FileDescriptorLimit.raise(toFit: configuration.maxConnections, logger: logger)
        let notifier = SystemdNotifier()
        try DataDirectoryOwner.check(settings.dataDirectory)
        try await DataDirectoryLock.withLock(dataDirectory: settings.dataDirectory) { _ in
            if let upgrade = try StoreUpgrade.prepare(dataDirectory: settings.dataDirectory, backupDirectory: settings.backupDirectory) {
                logger.notice("\(StoreUpgrade.describe(upgrade))")
            }
            var fingerprint: String?
            if transport == .tls, let tlsCertificate, let tlsKey {
                do {
                    let certificate = try HouseholdCertificate(chainPath: tlsCertificate, keyPath: tlsKey)
                    configuration.tls = certificate.context
                    fingerprint = certificate.fingerprint.description
                    logger.notice("TLS: the household's certificate \(tlsCertificate), key fingerprint \(certificate.fingerprint)")
                    if certificate.notValidAfter < Date() {
                        logger.warning("the certificate in \(tlsCertificate) expired on \(certificate.notValidAfter): browsers and apps will refuse it")
                    }
                } catch {
                    throw CommandFailure(.store, "cannot set up TLS: \(error)")
                }
            } else if transport == .tls {
                do {
                    let (identity, created) = try ServerIdentity.loadOrCreate(in: settings.dataDirectory) { repair in
                        logger.warning("\(repair)")
                    }
                    configuration.tls = try identity.makeTLSContext()
                    fingerprint = identity.fingerprint.description
                    logger.notice("TLS key fingerprint: \(identity.fingerprint)\(created ? " (a new key, made now)" : "")")
                } catch {
                    throw CommandFailure(.store, "cannot set up TLS: \(error)")
                }
            }
            let household = try HouseholdStore(directory: settings.dataDirectory, configuration: Self.householdConfiguration(settings))
            let server = WorkoutServer(configuration: configuration, household: household, logger: logger)
            let signals = ShutdownSignals(server: server, notifier: notifier, logger: logger)
            let addresses: [SocketAddress]
            do {
                addresses = try server.start()
            } catch {
                household.close()
                throw CommandFailure(.store, "cannot listen on \(settings.host):\(settings.port): \(error)")
            }
            let relief = MemoryRelief(server: server, environment: ProcessInfo.processInfo.environment, logger: logger)
            let dataDirectory = URL(fileURLWithPath: settings.dataDirectory).standardizedFileURL.path
            print("workoutd \(WorkoutServer.version): serving on \(addresses.map(\.description).joined(separator: ", "))")
            print("data directory: \(dataDirectory)")
            if let fingerprint {
                print("TLS key fingerprint: \(fingerprint)")
            } else {
                print("transport: plain TCP, not encrypted")
            }
            if (try? household.listMembersLocally().isEmpty) == true {
                let location = settings.configFile.map { "--config \($0)" } ?? "--data-dir \(settings.dataDirectory)"
                print("no members yet: create the owner with `\(HowToRun.workoutd) create-owner \(location) --email you@example.com --first-name You`")
            }
            fflush(nil)
            do {
                try notifier.notify(["READY=1", "STATUS=serving on \(addresses.map(\.description).joined(separator: ", "))"])
            } catch {
                logger.error("cannot tell systemd the server is ready: \(error)")
            }
            await signals.wait()
            relief?.stop()
            household.close()
            logger.info("stopped; the store is closed")
        }
    }

    /// The family dashboard's files, as the HTTP face serves them (`/` is its page).
    static func dashboardAssets() -> [String: StaticAsset] {
        Dashboard.routes.mapValues { StaticAsset(contentType: $0.contentType, body: $0.bytes) }
    }

    /// The household store's configuration: the defaults, overridden by the settings.
    static func householdConfiguration(_ settings: ServerSettings) -> HouseholdStore.Configuration {
        var configuration = HouseholdStore.Configuration()
        if let value = settings.limits.importBatchesPerMinute { configuration.importBatchesPerMinute = value }
        return configuration
    }

    /// The server's configuration: the defaults, overridden by the settings.
    static func serverConfiguration(_ settings: ServerSettings) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.host = settings.host
        configuration.port = settings.port
        let limits = settings.limits
        if let value = limits.maxConnections { configuration.maxConnections = value }
        if let value = limits.maxConnectionsPerAddress { configuration.maxConnectionsPerSource = value }
        if let value = limits.maxFrameBytes { configuration.maxFrameSize = value }
        if let value = limits.maxCallsInFlight { configuration.maxCallsInFlight = value }
        if let value = limits.maxBufferedOutputBytes { configuration.maxBufferedOutput = value }
        if let value = limits.handshakeTimeoutSeconds { configuration.handshakeTimeout = .milliseconds(Int64(value * 1000)) }
        if let value = limits.idleTimeoutSeconds { configuration.idleTimeout = .milliseconds(Int64(value * 1000)) }
        if let value = limits.maxIncompleteFrameBytes { configuration.maxIncompleteFrameBytes = value }
        if let value = limits.frameTimeoutSeconds { configuration.frameTimeout = .milliseconds(Int64(value * 1000)) }
        if let value = limits.sessionlessIdleSeconds { configuration.sessionlessIdleTimeout = .milliseconds(Int64(value * 1000)) }
        if let value = limits.maxStreamSeconds { configuration.maxStreamDuration = .milliseconds(Int64(value * 1000)) }
        if let value = limits.shutdownGraceSeconds { configuration.shutdownGracePeriod = .milliseconds(Int64(value * 1000)) }
        return configuration
    }
}

/// Turns SIGTERM and SIGINT into a graceful shutdown (the first) or an immediate exit (the
/// second). Installed before the server says it is listening, so no signal finds the default
/// action in place.
final class ShutdownSignals: @unchecked Sendable {
    // Safe because: `received`, `continuation` and `sources` are touched only on `queue`.
    private let queue = DispatchQueue(label: "workoutd.signals")
    private var sources: [any DispatchSourceSignal] = []
    private var received = false
    private var stopped = false
    private var continuation: CheckedContinuation<Void, Never>?
    private let server: WorkoutServer
    private let notifier: SystemdNotifier
    private let logger: Logger

    init(server: WorkoutServer, notifier: SystemdNotifier, logger: Logger) {
        self.server = server
        self.notifier = notifier
        self.logger = logger
        signal(SIGPIPE, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        for number in [SIGTERM, SIGINT] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [self] in handle(number) }
            source.resume()
            sources.append(source)
        }
    }

    private func handle(_ number: Int32) {
        guard !received else {
            logger.warning("second signal: exiting now")
            server.stopNow()
            Glibc._exit(1)
        }
        received = true
        logger.info("signal \(number): shutting down gracefully (a second signal exits at once)")
        do {
            try notifier.notify(["STOPPING=1", "STATUS=shutting down: finishing the calls in flight"])
        } catch {
            logger.error("cannot tell systemd the server is stopping: \(error)")
        }
        Task { [self] in
            await server.shutdown()
            queue.async { [self] in
                stopped = true
                continuation?.resume()
                continuation = nil
            }
        }
    }

    /// Returns once a signal's graceful shutdown has finished.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { [self] in
                if stopped { continuation.resume() } else { self.continuation = continuation }
            }
        }
    }
}

/// Makes glibc hand large freed blocks back to the system.
///
/// Each login hashes the password with scrypt, which allocates 32 MiB and frees it. glibc's
/// default mmap threshold adapts upward after such a free, so the next 32 MiB blocks come
/// from the heap arenas and stay in the process after being freed: a few logins on several
/// threads left ~150 MiB resident on an otherwise 5 MiB server. A fixed threshold of 1 MiB
/// keeps every large block in its own mapping, unmapped when freed.
private func returnLargeBlocksToTheSystem() {
    _ = workout_memory_set_mmap_threshold(1 << 20)
}

/// Keeps glibc to two malloc arenas, unless `MALLOC_ARENA_MAX` says otherwise.
///
/// glibc gives a thread that allocates while the other arenas are busy an arena of its own,
/// up to eight per core, and Dispatch moves the server's work across many threads: in a
/// 60-minute household soak the anonymous memory grew 12 % over the first half hour as arenas
/// were added and fragmented, where with two arenas a run stayed flat. Throughput with two
/// arenas was the same within noise (meals-day and log-weight at 64 connections, three
/// interleaved runs each: `Benchmarks/results/2026-11-25/`).
private func limitMallocArenas() {
    if ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil {
        _ = workout_memory_set_arena_limit(2)
    }
}
