/// The inbox page (to be built).
final class InboxPage {
    let root: Widget

    init(context: AppContext) {
        root = StatusPage(icon: "applications-engineering-symbolic", title: "Inbox", description: "Not built yet.")
    }
}
