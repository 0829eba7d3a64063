import FoundationEssentials
import Glibc
import QRSealKit

/// What the inbox page says about an item: its kind's name and icon, a one-line preview, when
/// and where it came from. Outside text (content, labels, sources) is flattened to one line
/// with its control characters escaped (`DisplayText`) before any widget shows it.
enum ItemText {
    /// The kind's name, as a person says it.
    static func name(_ kind: ContentKind) -> String {
        switch kind {
        case .sealed: return "Sealed message"
        case .recipient: return "Public key"
        case .url: return "Link"
        case .email: return "Email"
        case .phone: return "Phone number"
        case .sms: return "Text message"
        case .geo: return "Location"
        case .wifi: return "Wi-Fi network"
        case .contact: return "Contact"
        case .event: return "Event"
        case .product: return "Product"
        case .text: return "Text"
        case .binary: return "Binary data"
        case .date: return "Date"
        case .address: return "Address"
        }
    }

    /// What the item is: its kind's name, or "File" for one that carries a file.
    static func name(of item: InboxItem) -> String { item.fileName != nil ? "File" : name(item.kind) }

    /// The icon of what the item is (`name(of:)`).
    static func icon(of item: InboxItem) -> String { item.fileName != nil ? "x-office-document-symbolic" : icon(item.kind) }

    /// The symbolic icon of the kind (from the Adwaita icon theme).
    static func icon(_ kind: ContentKind) -> String {
        switch kind {
        case .sealed: return "channel-secure-symbolic"
        case .recipient: return "contact-new-symbolic"
        case .url: return "web-browser-symbolic"
        case .email: return "mail-unread-symbolic"
        case .phone: return "call-start-symbolic"
        case .sms: return "chat-message-new-symbolic"
        case .geo, .address: return "mark-location-symbolic"
        case .wifi: return "network-wireless-symbolic"
        case .contact: return "x-office-address-book-symbolic"
        case .event, .date: return "x-office-calendar-symbolic"
        case .product: return "emblem-documents-symbolic"
        case .text: return "text-x-generic-symbolic"
        case .binary: return "application-x-executable-symbolic"
        }
    }

    /// The most a row's title shows of a long content.
    static let previewLength = 160

    /// One line: the label when there is one, else a preview of the content.
    static func title(_ item: InboxItem) -> String {
        if let label = item.label, !label.isEmpty { return shortened(DisplayText.oneLine(label)) }
        return preview(item)
    }

    /// One line of content; a note in place of what cannot be shown (sealed, binary).
    static func preview(_ item: InboxItem) -> String {
        if let name = item.fileName { return "File \(DisplayText.escape(name)), \(size(item.bytes.count))" }
        let parsed = summary(item)
        switch item.kind {
        case .sealed:
            return "Sealed message, \(size(parsed.value("size").flatMap { Int($0) } ?? item.bytes.count)) — locked"
        case .binary: return "\(size(item.bytes.count)) of binary data"
        case .recipient: return "Public key, fingerprint \(parsed.value("fingerprint") ?? "?")"
        case .wifi, .contact, .event:
            // What names it, not the raw text (a Wi-Fi code holds its password).
            let name = parsed.value(item.kind == .wifi ? "ssid" : item.kind == .contact ? "name" : "summary")
            guard let name, !name.isEmpty else { fallthrough }
            return shortened(DisplayText.oneLine(name))
        default:
            let text = DisplayText.oneLine(item.text ?? "")
            return text.isEmpty ? "(empty)" : shortened(text)
        }
    }

    /// "2026-12-03 14:05 · photo.png": when, and the source (a file by its name only).
    static func subtitle(_ item: InboxItem) -> String {
        "\(Timestamp.local(item.receivedAt)) · \(source(item))"
    }

    /// Where the item came from, on one line.
    static func source(_ item: InboxItem) -> String {
        let source = item.sourceKind == .file ? SystemFiles.lastComponent(of: item.source) : item.source
        return DisplayText.escape(source)
    }

    /// The kind and parsed details of the item's content.
    static func summary(_ item: InboxItem) -> ContentSummary {
        ContentClassifier.classify(bytes: item.bytes, text: item.text, symbology: item.symbology)
    }

    /// "14 bytes", "3.2 kB".
    static func size(_ bytes: Int) -> String {
        bytes < 1000 ? "\(bytes) byte\(bytes == 1 ? "" : "s")" : NumberText.oneDecimal(Double(bytes) / 1000) + " kB"
    }

    static func shortened(_ text: String) -> String {
        text.count <= previewLength ? text : String(text.prefix(previewLength - 1)) + "…"
    }

    /// The address a kind's Open action gives to the desktop: a link, a mail, a call, a text
    /// or a place; nil for kinds with nothing to open.
    static func uri(_ item: InboxItem) -> String? {
        let parsed = summary(item)
        let text = (item.text ?? "").trimmingWhitespace()
        switch item.kind {
        case .url:
            guard let url = parsed.value("url") else { return nil }
            return url.lowercased().hasPrefix("www.") ? "https://" + url : url
        case .email:
            if text.lowercased().hasPrefix("mailto:") { return text }
            return parsed.value("address").map { "mailto:" + $0 }
        case .phone: return parsed.value("number").map { "tel:" + $0.filter { !$0.isWhitespace } }
        case .geo: return text.lowercased().hasPrefix("geo:") ? text : nil
        default: return nil
        }
    }
}
