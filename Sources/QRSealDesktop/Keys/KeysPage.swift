/// The keys page (to be built).
final class KeysPage {
    let root: Widget

    init(context: AppContext) {
        root = StatusPage(icon: "applications-engineering-symbolic", title: "Keys", description: "Not built yet.")
    }
}
