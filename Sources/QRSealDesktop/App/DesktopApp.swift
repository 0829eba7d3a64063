import Foundation
import QRSealKit

/// qrseal-desktop: the scanner, the inbox, the composer and the keyring in one window.
public enum QRSealDesktop {
    public static let version = "0.1.0"

    /// Parses the arguments and runs the app until its window closes; answers the exit
    /// status (0, or 64 for a usage error, as the CLI).
    public static func main(arguments: [String]) -> Int32 {
        let options: DesktopOptions
        do { options = try DesktopOptions(arguments: arguments) } catch {
            FileHandle.standardError.write(Data("qrseal-desktop: error: \(error.message)\n".utf8))
            FileHandle.standardError.write(Data("qrseal-desktop: hint: qrseal-desktop --help lists the options\n".utf8))
            return 64
        }
        if options.showHelp {
            FileHandle.standardOutput.write(Data(DesktopOptions.usage.utf8))
            return 0
        }
        if options.showVersion {
            FileHandle.standardOutput.write(Data("qrseal-desktop \(version)\n".utf8))
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
