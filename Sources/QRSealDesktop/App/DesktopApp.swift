import FoundationEssentials
import Glibc
import QRSealKit

/// qrseal-desktop: the scanner, the inbox, the composer and the keyring in one window.
public enum QRSealDesktop {
    public static let version = "0.1.0"

    /// Parses the arguments and runs the app until its window closes; answers the exit
    /// status (0, or 64 for a usage error, as the CLI).
    /// Writes `text` to standard output (1) or standard error (2), before any window.
    private static func emit(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { SystemFiles.writeAll($0, to: fd) }
    }

    public static func main(arguments: [String]) -> Int32 {
        let options: DesktopOptions
        do { options = try DesktopOptions(arguments: arguments) } catch {
            emit("qrseal-desktop: error: \(error.message)\n", to: 2)
            emit("qrseal-desktop: hint: qrseal-desktop --help lists the options\n", to: 2)
            return 64
        }
        if options.showHelp {
            emit(DesktopOptions.usage, to: 1)
            return 0
        }
        if options.showVersion {
            emit("qrseal-desktop \(version)\n", to: 1)
            return 0
        }
        // GTK's GL renderer on a software rasterizer (llvmpipe: no GPU, a bare X server, a VM)
        // shows a 1280×720 preview at 9 frames a second and stalls the main loop 60–180 ms a
        // frame; cairo's shows all 30 without a stall (bench/desktop.py). A user's
        // GSK_RENDERER still wins.
        setenv("GSK_RENDERER", "cairo", 0)
        let app = Application(id: "org.qrseal.Desktop")
        let context = AppContext(options: options, environment: ProcessInfo.processInfo.environment)
        var window: MainWindow?
        app.on("activate") {
            if let window { window.window.present(); return }
            Application.setStyle(options.style)
            let built = MainWindow(application: app, context: context)
            built.present()
            window = built
        }
        let status = app.run()
        window = nil
        return status
    }
}
