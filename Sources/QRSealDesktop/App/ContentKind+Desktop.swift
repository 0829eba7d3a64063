import QRSealKit

/// How the app names and pictures each kind of content, on every page.
extension ContentKind {
    var title: String {
        switch self {
        case .sealed: return "Sealed message"
        case .recipient: return "age recipient"
        case .url: return "Link"
        case .email: return "Email address"
        case .phone: return "Phone number"
        case .sms: return "Text message"
        case .geo: return "Place"
        case .wifi: return "Wi-Fi network"
        case .contact: return "Contact"
        case .event: return "Event"
        case .product: return "Product"
        case .text: return "Text"
        case .binary: return "Data"
        case .date: return "Date"
        case .address: return "Address"
        }
    }

    /// A symbolic icon of the Adwaita theme.
    var icon: String {
        switch self {
        case .sealed: return "channel-secure-symbolic"
        case .recipient: return "contact-new-symbolic"
        case .url: return "web-browser-symbolic"
        case .email: return "mail-send-symbolic"
        case .phone, .sms: return "call-start-symbolic"
        case .geo, .address: return "find-location-symbolic"
        case .wifi: return "network-wireless-symbolic"
        case .contact: return "avatar-default-symbolic"
        case .event, .date: return "x-office-calendar-symbolic"
        case .product: return "view-continuous-symbolic"
        case .text: return "text-x-generic-symbolic"
        case .binary: return "application-x-executable-symbolic"
        }
    }
}
