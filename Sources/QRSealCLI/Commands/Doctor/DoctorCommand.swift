import FoundationEssentials
import Glibc
import QRSealKit

/// `qrseal doctor`: what live scanning needs, checked and explained, like VisionKit's
/// `isSupported` / `isAvailable`: the video devices and which can capture, whether this user
/// may open them, the libraries loaded, and where the inbox and keyring are. Exit 0 when a
/// camera can be used, 1 when there is no video device at all, 2 when none of those there
/// can be used.
struct DoctorCommand {
    static let spec = CommandSpec(
        name: "doctor",
        abstract: "Check what live scanning needs: cameras, permissions, libraries, inbox and keyring.",
        arguments: "",
        options: [
            OptionSpec(long: "device", value: "PATH", help: "Check only this camera (default: every /dev/video*)."),
            Locations.inboxOption,
        ])

    let devices: [String]
    let locations: Locations
    let args: ParsedArguments

    init(_ args: ParsedArguments, console: Console) throws(CLIError) {
        if let extra = args.positionals.first { throw .usage("doctor takes no arguments ('\(extra)')") }
        self.args = args
        devices = args.value("device").map { [$0] } ?? VideoDevices.list()
        locations = Locations(console: console)
    }

    func run(console: Console) -> ExitStatus {
        let reports = devices.map(VideoDevices.probe)
        console.print("cameras")
        if reports.isEmpty { console.print("  none: no /dev/video* device") }
        let width = reports.map(\.path.count).max() ?? 0
        for report in reports {
            console.print("  " + DisplayText.escape(report.path).padded(to: width)
                          + "  " + DisplayText.escape(Self.describe(report)))
        }
        console.print("access")
        console.print("  " + Self.userLine())
        console.print("libraries")
        let libraries = LinkedLibraries.all()
        let nameWidth = libraries.map(\.name.count).max() ?? 0
        let versionWidth = libraries.compactMap(\.version?.count).max() ?? 0
        for library in libraries {
            let name = library.name.padded(to: nameWidth)
            if let version = library.version, let path = library.path {
                console.print("  \(name)  \(version.padded(to: versionWidth))  \(path)")
            } else if let missing = library.missing {
                console.print("  \(name)  missing: \(DisplayText.escape(missing.description)) "
                              + "(apt-get install \(missing.library.package))")
            } else {
                console.print("  \(name)  not linked")
            }
        }
        console.print("text languages")
        let dataPath = TextScan.dataPath(console)
        let languages = TextRecognizer.installedLanguages(dataPath: dataPath)
        console.print("  " + (languages.isEmpty ? "none" : languages.joined(separator: " "))
                      + "  in " + DisplayText.escape(dataPath)
                      + (languages.isEmpty ? " (apt-get install tesseract-ocr-eng)" : ""))
        console.print("files")
        for line in fileLines(console: console) { console.print("  " + line) }

        if let usable = reports.first(where: \.canCapture) {
            let command = usable.path == LiveScan.defaultDevice ? "qrseal scan --camera"
                : "qrseal scan --camera --device \(usable.path)"
            console.print("live scanning: ready with \(usable.path) (\(command))")
            return .success
        }
        Diagnostics.report(Self.failure(reports, explicit: args.value("device") != nil), console: console)
        return reports.isEmpty ? .nothingFound : .failure
    }

    /// "HD Webcam (uvcvideo, usb-0000:00:14.0-1): can capture: MJPG, YUYV", or what is wrong.
    static func describe(_ report: VideoDeviceInfo) -> String {
        var text = ""
        if let card = report.card {
            text = card + " (" + [report.driver, report.bus].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ") + "): "
        }
        if let problem = report.problem {
            if case .cannotCapture = problem { return text + "cannot capture video (a metadata or output node)" }
            return text + problem.description
        }
        return text + "can capture: " + report.formats.joined(separator: ", ")
    }

    /// Why no camera can be used, with what to do.
    static func failure(_ reports: [VideoDeviceInfo], explicit: Bool) -> CLIError {
        if reports.isEmpty {
            return CLIError(message: "no camera: there is no video device (/dev/video*) on this machine", hints: [
                "plug in a camera and check that its driver is loaded (a USB webcam uses uvcvideo: lsmod | grep uvcvideo)",
                "in a container or virtual machine, pass the camera through (docker run --device /dev/video0 …)",
                "without a camera, scan recorded frames: ffmpeg -i VIDEO -f yuv4mpegpipe - | qrseal scan --stream -",
            ], status: .nothingFound)
        }
        if reports.contains(where: { $0.problem == .permissionDenied }) {
            return CLIError(message: "no camera can be used: this user may not open the video devices",
                            hints: [CaptureMessages.groupHint])
        }
        if explicit, let problem = reports[0].problem {
            return CaptureMessages.error(problem, name: reports[0].path, isCamera: true)
        }
        return CLIError(message: "no camera can be used: none of the video devices can capture video in a format qrseal reads",
                        hints: ["a camera's capture node is usually the first of its /dev/videoN pair; "
                                + "the list above says what each device is"])
    }

    /// Who we are and whether we are in the `video` group that owns camera devices.
    static func userLine() -> String {
        let uid = getuid()
        let user = getpwuid(uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(uid)"
        guard let group = getgrnam("video") else { return "user \(user); there is no 'video' group on this system" }
        let videoGID = group.pointee.gr_gid
        let count = getgroups(0, nil)
        var groups = [gid_t](repeating: 0, count: Int(max(count, 0)))
        _ = getgroups(count, &groups)
        if uid == 0 { return "user \(user): may open any device" }
        if getegid() == videoGID || groups.contains(videoGID) { return "user \(user): in the 'video' group" }
        return "user \(user): not in the 'video' group (" + CaptureMessages.groupHint + ")"
    }

    /// Where the inbox, keyring, config file and the engine's helper are, and whether they exist.
    func fileLines(console: Console) -> [String] {
        var lines: [String] = []
        do {
            let path = try locations.inboxPath(args)
            var info = stat()
            let state = stat(path, &info) == 0 ? "\(info.st_size) bytes" : "not created yet; 'qrseal scan' creates it"
            lines.append("inbox    \(path) (\(state))")
        } catch {
            lines.append("inbox    unknown: \(error.message)")
        }
        do {
            let ring = try locations.keyring()
            let (keys, problems) = ring.readableKeys()
            var state = FileManager.default.fileExists(atPath: ring.directory)
                ? "\(keys.count) key\(keys.count == 1 ? "" : "s")" : "no keys yet; 'qrseal keys add FILE' adds one"
            if !problems.isEmpty { state += ", \(problems.count) unreadable" }
            lines.append("keyring  \(ring.directory) (\(state))")
        } catch {
            lines.append("keyring  unknown: \(error.message)")
        }
        if let config = locations.configPath {
            lines.append("config   \(config) (\(FileManager.default.fileExists(atPath: config) ? "present" : "none"))")
        }
        // The helper zxing-cpp and Tesseract's first start run in.
        let engine = Engine.executable
        lines.append("engine   \(engine) (\(FileManager.default.isExecutableFile(atPath: engine) ? "present" : "missing: reinstall qrseal"))")
        return lines
    }
}
