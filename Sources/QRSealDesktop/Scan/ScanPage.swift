/// The scan page (being built).
final class ScanPage {
    let root: Widget

    init(context: AppContext) {
        root = StatusPage(icon: "camera-photo-symbolic", title: "Scan", description: "Not built yet.")
    }

    func setActive(_ active: Bool) {}
    func stop() {}
}
