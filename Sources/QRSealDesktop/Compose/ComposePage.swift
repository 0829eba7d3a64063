/// The compose page (to be built).
final class ComposePage {
    let root: Widget

    init(context: AppContext) {
        root = StatusPage(icon: "applications-engineering-symbolic", title: "Compose", description: "Not built yet.")
    }
}
