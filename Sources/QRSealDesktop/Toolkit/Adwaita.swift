import CGtk

/// `AdwApplication`: one instance per user; `activate` builds the window.
final class Application: Object {
    init(id: String) {
        adw_init()
        super.init(owning: UnsafeMutableRawPointer(adw_application_new(id, G_APPLICATION_NON_UNIQUE)))
    }

    /// Runs the main loop until the last window closes; answers the exit status.
    func run() -> Int32 {
        // Arguments are ours to parse (main.swift); GApplication sees only the program's name.
        var name: UnsafeMutablePointer<CChar>? = strdup("qrseal-desktop")
        defer { free(name) }
        return g_application_run(p(), 1, &name)
    }

    /// The light or dark style: follows the system's unless forced.
    enum Style { case system, light, dark }

    static func setStyle(_ style: Style) {
        let manager = adw_style_manager_get_default()
        switch style {
        case .system: adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_DEFAULT)
        case .light: adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_FORCE_LIGHT)
        case .dark: adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_FORCE_DARK)
        }
    }

    static var isDark: Bool { adw_style_manager_get_dark(adw_style_manager_get_default()) != 0 }
}

/// `AdwApplicationWindow`.
final class Window: Widget {
    private var content: Widget?

    init(application: Application, title: String, width: Int, height: Int) {
        super.init(sinking: UnsafeMutableRawPointer(adw_application_window_new(application.p())))
        gtk_window_set_title(p(), title)
        gtk_window_set_default_size(p(), Int32(width), Int32(height))
    }

    func set(content: Widget) {
        self.content = content
        adw_application_window_set_content(p(), content.widget)
    }

    func present() { gtk_window_present(p()) }

    var isFullscreen: Bool {
        get { gtk_window_is_fullscreen(p()) != 0 }
        set { newValue ? gtk_window_fullscreen(p()) : gtk_window_unfullscreen(p()) }
    }

    func close() { gtk_window_close(p()) }
}

/// `AdwHeaderBar`, with a title widget and buttons at either end.
final class HeaderBar: Widget {
    private var kept: [Widget] = []

    init() { super.init(sinking: UnsafeMutableRawPointer(adw_header_bar_new())) }

    func set(title: Widget) {
        kept.append(title)
        adw_header_bar_set_title_widget(p(), title.widget)
    }

    func packStart(_ child: Widget) {
        kept.append(child)
        adw_header_bar_pack_start(p(), child.widget)
    }

    func packEnd(_ child: Widget) {
        kept.append(child)
        adw_header_bar_pack_end(p(), child.widget)
    }
}

/// `AdwViewStack` of named pages, and the `AdwViewSwitcher` that picks one.
final class ViewStack: Widget {
    private var pages: [String: Widget] = [:]

    init() { super.init(sinking: UnsafeMutableRawPointer(adw_view_stack_new())) }

    func add(_ page: Widget, name: String, title: String, icon: String) {
        pages[name] = page
        _ = adw_view_stack_add_titled(p(), page.widget, name, title)
        let stackPage = adw_view_stack_get_page(p(), page.widget)
        adw_view_stack_page_set_icon_name(stackPage, icon)
    }

    var visible: String {
        get { adw_view_stack_get_visible_child_name(p()).map { String(cString: $0) } ?? "" }
        set { adw_view_stack_set_visible_child_name(p(), newValue) }
    }

    /// Calls `body` with the page's name whenever another page is shown.
    func onSwitch(_ body: @escaping (String) -> Void) {
        onPointer("notify::visible-child-name", { [unowned self] _ in body(self.visible) })
    }

    func switcher() -> AnyWidget {
        let switcher = adw_view_switcher_new()!
        adw_view_switcher_set_stack(OpaquePointer(switcher), opaque)
        adw_view_switcher_set_policy(OpaquePointer(switcher), ADW_VIEW_SWITCHER_POLICY_WIDE)
        return AnyWidget(switcher)
    }
}

/// `AdwToastOverlay`: short messages over the content, with an optional button ("Undo").
final class ToastOverlay: Widget {
    private let child: Widget

    init(_ child: Widget) {
        self.child = child
        super.init(sinking: UnsafeMutableRawPointer(adw_toast_overlay_new()))
        adw_toast_overlay_set_child(p(), child.widget)
    }

    /// Shows `text`; with a button, `action` runs when it is pressed, `dismissed` when the toast
    /// goes without it.
    func show(_ text: String, button: String? = nil, timeout: Int = 5,
              action: (() -> Void)? = nil, dismissed: (() -> Void)? = nil) {
        let toast = Object(owning: UnsafeMutableRawPointer(adw_toast_new(text)))
        adw_toast_set_timeout(toast.p(), guint(timeout))
        var pressed = false
        if let button {
            adw_toast_set_button_label(toast.p(), button)
            toast.on("button-clicked") { pressed = true; action?() }
        }
        toast.on("dismissed") { if !pressed { dismissed?() } }
        g_object_ref(toast.raw)
        adw_toast_overlay_add_toast(p(), toast.p())
    }
}

/// `AdwStatusPage`: an icon, a title and what to do, where content would be.
final class StatusPage: Widget {
    private var kept: Widget?

    init(icon: String, title: String, description: String) {
        super.init(sinking: UnsafeMutableRawPointer(adw_status_page_new()))
        set(icon: icon, title: title, description: description)
    }

    func set(icon: String, title: String, description: String) {
        adw_status_page_set_icon_name(p(), icon)
        adw_status_page_set_title(p(), title)
        adw_status_page_set_description(p(), description)
        accessibleName = title
    }

    func set(child: Widget) {
        kept = child
        adw_status_page_set_child(p(), child.widget)
    }
}

/// `AdwMessageDialog`: a question with buttons, and optionally a widget (an entry) inside.
final class MessageDialog: Widget {
    enum Appearance { case normal, suggested, destructive }
    private var extra: Widget?

    init(parent: Widget, heading: String, body: String) {
        super.init(sinking: UnsafeMutableRawPointer(adw_message_dialog_new(parent.rootWindow, heading, body)))
        gtk_window_set_modal(p(), 1)
    }

    func add(response id: String, label: String, appearance: Appearance = .normal) {
        adw_message_dialog_add_response(p(), id, label)
        switch appearance {
        case .normal: break
        case .suggested: adw_message_dialog_set_response_appearance(p(), id, ADW_RESPONSE_SUGGESTED)
        case .destructive: adw_message_dialog_set_response_appearance(p(), id, ADW_RESPONSE_DESTRUCTIVE)
        }
    }

    func set(extra child: Widget) {
        extra = child
        adw_message_dialog_set_extra_child(p(), child.widget)
    }

    /// Shows the dialog; `body` gets the id of the response chosen ("close" when dismissed).
    /// The dialog keeps itself alive until then.
    func present(default id: String? = nil, close: String = "close", _ body: @escaping (String) -> Void) {
        if let id { adw_message_dialog_set_default_response(p(), id) }
        adw_message_dialog_set_close_response(p(), close)
        var keep: MessageDialog? = self
        onPointer("response", { response in
            let id = response.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? close
            body(id)
            keep = nil
        })
        gtk_window_present(p())
        _ = keep
    }
}
