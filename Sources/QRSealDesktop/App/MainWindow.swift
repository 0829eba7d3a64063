/// The one window: a header bar with the page switcher, the four pages, and toasts over them.
final class MainWindow {
    let window: Window
    let stack = ViewStack()
    let scan: ScanPage
    let inbox: InboxPage
    let compose: ComposePage
    let keys: KeysPage

    init(application: Application, context: AppContext) {
        window = Window(application: application, title: "qrseal", width: 1180, height: 760)
        context.window = window
        scan = ScanPage(context: context)
        inbox = InboxPage(context: context)
        compose = ComposePage(context: context)
        keys = KeysPage(context: context)
        stack.add(scan.root, name: "scan", title: "Scan", icon: "camera-photo-symbolic")
        stack.add(inbox.root, name: "inbox", title: "Inbox", icon: "mail-unread-symbolic")
        stack.add(compose.root, name: "compose", title: "Compose", icon: "document-edit-symbolic")
        stack.add(keys.root, name: "keys", title: "Keys", icon: "dialog-password-symbolic")
        let header = HeaderBar()
        header.set(title: stack.switcher())
        let content = Box(.vertical)
        content.append(header)
        stack.expandsVertically = true
        content.append(stack)
        let toasts = ToastOverlay(content)
        context.toasts = toasts
        window.set(content: toasts)
        stack.visible = context.options.page
        context.showPage = { [unowned self] name in self.stack.visible = name }
        stack.onSwitch { [unowned self] name in self.scan.setActive(name == "scan") }
        window.onHandled("close-request") { [unowned self] in
            self.scan.stop()
            return false
        }
    }

    func present() {
        window.present()
        scan.setActive(stack.visible == "scan")
    }
}
