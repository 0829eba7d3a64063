import CGtk

/// `GtkLabel`.
final class Label: Widget {
    init(_ text: String = "", style: String? = nil) {
        super.init(sinking: UnsafeMutableRawPointer(gtk_label_new(text)))
        if let style { addStyle(style) }
    }

    var text: String {
        get { String(cString: gtk_label_get_text(p())) }
        set { gtk_label_set_text(p(), newValue) }
    }

    /// Wraps long text over several lines (by word, or anywhere in a long word).
    func wraps(_ on: Bool = true) {
        gtk_label_set_wrap(p(), on ? 1 : 0)
        gtk_label_set_wrap_mode(p(), PANGO_WRAP_WORD_CHAR)
    }

    /// Lets the text be selected and copied.
    func selectable(_ on: Bool = true) { gtk_label_set_selectable(p(), on ? 1 : 0) }

    /// Ends a text too long for its space with "…".
    func ellipsizes() { gtk_label_set_ellipsize(p(), PANGO_ELLIPSIZE_END) }

    func leftAligned() { gtk_label_set_xalign(p(), 0) }
}

/// `GtkButton`, with a text label or an icon.
final class Button: Widget {
    init(_ label: String, style: String? = nil, action: (() -> Void)? = nil) {
        super.init(sinking: UnsafeMutableRawPointer(gtk_button_new_with_mnemonic(label)))
        nameFromLabel()
        if let style { addStyle(style) }
        if let action { on("clicked", action) }
    }

    /// A button showing an icon; `name` is what a screen reader says and the tooltip shows.
    init(icon: String, name: String, action: (() -> Void)? = nil) {
        super.init(sinking: UnsafeMutableRawPointer(gtk_button_new_from_icon_name(icon)))
        tooltip = name
        accessibleName = name
        if let action { on("clicked", action) }
    }

    var label: String {
        get { gtk_button_get_label(p()).map { String(cString: $0) } ?? "" }
        set {
            gtk_button_set_label(p(), newValue)
            nameFromLabel()
        }
    }

    /// GTK 4.8 names a button with a mnemonic both by its raw label ("_Copy") and by the label
    /// that names it ("Copy"): screen readers said "_Copy Copy". The raw one is dropped.
    private func nameFromLabel() {
        gtk_accessible_reset_property(OpaquePointer(raw), GTK_ACCESSIBLE_PROPERTY_LABEL)
    }
}

/// `GtkToggleButton`: a button that stays in.
final class ToggleButton: Widget {
    init(_ label: String, active: Bool = false, toggled: ((Bool) -> Void)? = nil) {
        super.init(sinking: UnsafeMutableRawPointer(gtk_toggle_button_new_with_mnemonic(label)))
        isActive = active
        if let toggled { on("toggled") { [unowned self] in toggled(self.isActive) } }
    }

    init(icon: String, name: String, toggled: ((Bool) -> Void)? = nil) {
        super.init(sinking: UnsafeMutableRawPointer(gtk_toggle_button_new()))
        gtk_button_set_icon_name(p(), icon)
        tooltip = name
        accessibleName = name
        if let toggled { on("toggled") { [unowned self] in toggled(self.isActive) } }
    }

    var isActive: Bool {
        get { gtk_toggle_button_get_active(p()) != 0 }
        set { gtk_toggle_button_set_active(p(), newValue ? 1 : 0) }
    }
}

/// `GtkCheckButton`: a check box with a label (or a radio button, when grouped).
final class CheckButton: Widget {
    init(_ label: String, active: Bool = false, toggled: ((Bool) -> Void)? = nil) {
        super.init(sinking: UnsafeMutableRawPointer(gtk_check_button_new_with_mnemonic(label)))
        isActive = active
        if let toggled { on("toggled") { [unowned self] in toggled(self.isActive) } }
    }

    var isActive: Bool {
        get { gtk_check_button_get_active(p()) != 0 }
        set { gtk_check_button_set_active(p(), newValue ? 1 : 0) }
    }

    /// Makes this one of a group of radio buttons with `other`.
    func group(with other: CheckButton) { gtk_check_button_set_group(p(), other.p()) }
}

/// `GtkEntry`: one line of text.
final class Entry: Widget {
    init(placeholder: String = "", changed: ((String) -> Void)? = nil) {
        super.init(sinking: UnsafeMutableRawPointer(gtk_entry_new()))
        gtk_entry_set_placeholder_text(p(), placeholder)
        if !placeholder.isEmpty { accessibleName = placeholder }
        if let changed { on("changed") { [unowned self] in changed(self.text) } }
    }

    var text: String {
        get { String(cString: gtk_editable_get_text(p())) }
        set { gtk_editable_set_text(p(), newValue) }
    }

    func onActivate(_ body: @escaping () -> Void) { on("activate", body) }
}

/// `GtkPasswordEntry`: what is typed is hidden, and `take()` clears it as it reads it.
final class PasswordEntry: Widget {
    init(name: String) {
        super.init(sinking: UnsafeMutableRawPointer(gtk_password_entry_new()))
        gtk_password_entry_set_show_peek_icon(p(), 1)
        qrs_object_set_string(raw, "placeholder-text", name)
        accessibleName = name
    }

    /// The passphrase typed, as bytes; the entry is emptied.
    func take() -> [UInt8] {
        let bytes = Array(String(cString: gtk_editable_get_text(p())).utf8)
        gtk_editable_set_text(p(), "")
        return bytes
    }

    var isEmpty: Bool { gtk_editable_get_text(p()).pointee == 0 }

    func onActivate(_ body: @escaping () -> Void) { on("activate", body) }
}

/// `GtkSearchEntry`: search as you type.
final class SearchEntry: Widget {
    init(placeholder: String, changed: @escaping (String) -> Void) {
        super.init(sinking: UnsafeMutableRawPointer(gtk_search_entry_new()))
        qrs_object_set_string(raw, "placeholder-text", placeholder)
        accessibleName = placeholder
        on("search-changed") { [unowned self] in changed(self.text) }
    }

    var text: String {
        get { String(cString: gtk_editable_get_text(p())) }
        set { gtk_editable_set_text(p(), newValue) }
    }
}

/// `GtkTextView`: several lines of text, to write or to read.
final class TextView: Widget {
    init(editable: Bool = true, name: String) {
        super.init(sinking: UnsafeMutableRawPointer(gtk_text_view_new()))
        gtk_text_view_set_wrap_mode(p(), GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_editable(p(), editable ? 1 : 0)
        gtk_text_view_set_cursor_visible(p(), editable ? 1 : 0)
        accessibleName = name
        minimumSize(height: 80)
    }

    private var buffer: UnsafeMutablePointer<GtkTextBuffer> { gtk_text_view_get_buffer(p()) }

    var text: String {
        get {
            var start = GtkTextIter(), end = GtkTextIter()
            gtk_text_buffer_get_bounds(buffer, &start, &end)
            return takeString(gtk_text_buffer_get_text(buffer, &start, &end, 0)) ?? ""
        }
        set { gtk_text_buffer_set_text(buffer, newValue, -1) }
    }

    /// Calls `body` whenever the text changes.
    func onChange(_ body: @escaping () -> Void) {
        let buffer = AnyObjectRef(UnsafeMutableRawPointer(self.buffer))
        buffer.on("changed", body)
        keep = buffer
    }

    private var keep: AnyObjectRef?
}

/// A reference to an object owned by another (a text view's buffer), held while needed.
final class AnyObjectRef: Object {
    init(_ raw: UnsafeMutableRawPointer) {
        g_object_ref(raw)
        super.init(owning: raw)
    }
}

/// `GtkDropDown` over a fixed list of strings.
final class DropDown: Widget {
    init(_ items: [String], name: String, changed: @escaping (Int) -> Void) {
        var pointers = items.map { strdup($0) } + [nil]
        let list = pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_drop_down_new_from_strings($0)
            }
        }
        for pointer in pointers { free(pointer) }
        super.init(sinking: UnsafeMutableRawPointer(list!))
        accessibleName = name
        nameButton(name)
        onPointer("notify::selected", { [unowned self] _ in changed(self.selected) })
    }

    var selected: Int {
        get { Int(gtk_drop_down_get_selected(p())) }
        set { gtk_drop_down_set_selected(p(), guint(newValue)) }
    }
}

extension DropDown {
    /// Replaces the strings offered (the drop-down's `GtkStringList`); the first is then selected.
    func replace(items: [String]) {
        guard let model = gtk_drop_down_get_model(p()) else { return }
        let list = model
        let count = g_list_model_get_n_items(list)
        var pointers = items.map { strdup($0) } + [nil]
        pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_string_list_splice(list, 0, count, $0)
            }
        }
        for pointer in pointers { free(pointer) }
        selected = 0
    }
}

extension PasswordEntry {
    /// Whether both entries hold the same text (compared in C; no Swift copy of either is made).
    func matches(_ other: PasswordEntry) -> Bool {
        strcmp(gtk_editable_get_text(p()), gtk_editable_get_text(other.p())) == 0
    }

    /// Empties the entry without reading it.
    func clear() { gtk_editable_set_text(p(), "") }

    /// Calls `body` whenever what is typed changes.
    func onChange(_ body: @escaping () -> Void) { on("changed", body) }
}

extension TextView {
    /// Space between the text and the view's edges, in pixels.
    func padding(_ pixels: Int) {
        gtk_text_view_set_left_margin(p(), Int32(pixels))
        gtk_text_view_set_right_margin(p(), Int32(pixels))
        gtk_text_view_set_top_margin(p(), Int32(pixels))
        gtk_text_view_set_bottom_margin(p(), Int32(pixels))
    }
}

extension ToggleButton {
    /// Shows another icon, and says another name (a play button that becomes a pause button).
    func set(icon: String, name: String) {
        gtk_button_set_icon_name(p(), icon)
        tooltip = name
        accessibleName = name
    }
}

extension TextView {
    /// Whether Tab types a tab character (true) or moves the focus on, as in a form (false).
    var acceptsTab: Bool {
        get { gtk_text_view_get_accepts_tab(p()) != 0 }
        set { gtk_text_view_set_accepts_tab(p(), newValue ? 1 : 0) }
    }
}

extension DropDown {
    /// Gives the drop-down's own button, which takes the keyboard focus, the drop-down's
    /// name: GTK 4.8 leaves it "GtkToggleButton" for a screen reader.
    fileprivate func nameButton(_ name: String) {
        guard let button = gtk_widget_get_first_child(widget) else { return }
        qrs_accessible_set_label(UnsafeMutableRawPointer(button), name)
    }
}

extension Label {
    /// Breaks a long word (a key) without adding hyphens, which would read as part of it.
    func breaksWithoutHyphens() {
        let attributes = pango_attr_list_new()
        pango_attr_list_insert(attributes, pango_attr_insert_hyphens_new(0))
        gtk_label_set_attributes(p(), attributes)
        pango_attr_list_unref(attributes)
    }
}
