import FoundationEssentials
import Glibc
import QRSealKit

/// The status page shown in place of the preview when the camera or stream cannot be read:
/// what happened and what to do, with the rest of the page still usable.
extension ScanPage {
    func showProblem(_ error: CaptureError, device: LiveFeed.Source?) {
        let what: String
        switch device {
        case .camera(let path, _)?: what = path
        case .stream(let path)?: what = path == "-" ? "standard input" : path
        case nil: what = "camera"
        }
        let (title, advice): (String, String)
        switch error {
        case .noDevice:
            (title, advice) = ("No camera", "Connect a camera, or open an image. A recording can be scanned with qrseal-desktop --stream FILE.")
        case .permissionDenied:
            (title, advice) = ("Camera access denied", "Add your user to the video group (sudo adduser $USER video), log in again, and reopen qrseal.")
        case .busy:
            (title, advice) = ("The camera is busy", "Another program is using it. Close that program, then reopen this page.")
        default:
            (title, advice) = ("Cannot read \(DisplayText.escape(what))", error.description.prefix(1).uppercased() + error.description.dropFirst() + ".")
        }
        problem.set(icon: "camera-disabled-symbolic", title: title, description: advice)
        problem.isVisible = true
        previewBox.isVisible = false
        if case .noDevice = error {
            let open = Button("_Open an image…", style: "suggested-action") { [unowned self] in self.openImage() }
            open.addStyle("pill")
            open.align(horizontal: .center)
            problem.set(child: open)
        }
    }
}
