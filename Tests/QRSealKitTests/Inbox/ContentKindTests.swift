import Testing
@testable import QRSealKit

/// What `inbox list` shows as an item's kind and `inbox show` as its details.
@Suite("Inbox: content kinds")
struct ContentKindTests {
    private func summary(_ text: String, _ symbology: String = "qr") -> ContentSummary {
        ContentClassifier.classify(bytes: Array(text.utf8), text: text, symbology: symbology)
    }

    private func fields(_ text: String, _ symbology: String = "qr") -> [String] {
        summary(text, symbology).fields.map { "\($0.name): \($0.value)" }
    }

    @Test("kind names are stable, since the inbox stores them and --kind takes them")
    func names() {
        #expect(ContentKind.allCases.map(\.rawValue) == ["sealed", "recipient", "url", "email", "phone", "sms", "geo", "wifi",
                                                         "contact", "event", "product", "text", "binary", "date", "address"])
    }

    @Test("sealed messages in either armor, scanned or pasted with white space around")
    func sealed() throws {
        let envelope = try Sealer().seal(.text("meet at noon"), with: .keyFile(try SecretKey.generate()))
        let digits = Armor.text(for: envelope)
        // The size is the sealed message's, not its armor's.
        #expect(fields(digits) == ["armor: digits", "size: \(envelope.count)"])
        #expect(summary("  \(digits)\n", "text").kind == .sealed)
        let binary = Armor.magic + envelope
        let scanned = ContentClassifier.classify(bytes: binary, text: nil, symbology: "qr")
        #expect(scanned == ContentSummary(kind: .sealed, fields: [.init(name: "armor", value: "binary"),
                                                                  .init(name: "size", value: "\(envelope.count)")]))
        #expect(summary("my message starts with QRSEAL1:0123").kind == .text)
        #expect(summary("QRSEAL is our tool").kind == .text)
    }

    @Test("links", arguments: ["https://example.com/a?b=c#d", "HTTP://EXAMPLE.COM", "ftp://files.example.org/pub",
                               "www.example.com/menu", "otpauth://totp/Example:alice?secret=JBSWY3DPEHPK3PXP"])
    func urls(link: String) {
        #expect(fields("  \(link)\r\n") == ["url: \(link)"])
    }

    @Test("bookmarks carry a title and escaped colons")
    func bookmark() {
        #expect(fields("MEBKM:TITLE:Café menu;URL:http\\://example.com/menu;;")
                == ["url: http://example.com/menu", "title: Café menu"])
        #expect(fields("mebkm:URL:https\\://example.org;;") == ["url: https://example.org"])
        #expect(summary("MEBKM:TITLE:No link;;").kind == .text)
    }

    @Test("text that only resembles a link", arguments: [
        "http//x", "http://", "http:// example.com", "visit http://example.com today", "www.example",
        "file:///etc/passwd", "1http://example.com", "http://exa\u{0}mple.com", "\u{0}http://example.com",
    ])
    func notURLs(text: String) {
        #expect(summary(text).kind == .text)
    }

    @Test("mail: mailto with decoded subject and body, MATMSG, bare addresses")
    func email() {
        #expect(fields("mailto:jane@example.com?subject=Dinner%20on%20Friday&body=Bring%20caf%C3%A9")
                == ["address: jane@example.com", "subject: Dinner on Friday", "body: Bring café"])
        #expect(fields("MAILTO:Jane@Example.COM") == ["address: Jane@Example.COM"])
        #expect(fields("mailto:?to=ops@example.com&subject=Outage") == ["address: ops@example.com", "subject: Outage"])
        #expect(fields("MATMSG:TO:jane@example.com;SUB:Re\\: lunch;BODY:Noon\\; usual place;;")
                == ["address: jane@example.com", "subject: Re: lunch", "body: Noon; usual place"])
        #expect(fields("jane.doe+tag@mail.example.co.uk") == ["address: jane.doe+tag@mail.example.co.uk"])
    }

    @Test("text that only resembles mail", arguments: [
        "mailto:", "mailto:?subject=Hi", "mailto:john", "MATMSG:SUB:Hi;BODY:there;;", "john@localhost",
        "write to john@example.com", "@example.com", "a@b.c", "jane@exa mple.com",
    ])
    func notEmail(text: String) {
        #expect(summary(text).kind == .text)
    }

    @Test("phone numbers and text messages")
    func phoneAndSMS() {
        #expect(fields("tel:+1-201-555-0123") == ["number: +1-201-555-0123"])
        #expect(fields("TEL:+1%20555%200100") == ["number: +1 555 0100"])
        #expect(fields("SMSTO:+15550100:Running late: 10 min") == ["number: +15550100", "message: Running late: 10 min"])
        #expect(fields("sms:+15550100?body=Running%20late") == ["number: +15550100", "message: Running late"])
        #expect(fields("sms:+15550100&body=hi") == ["number: +15550100", "message: hi"])
        #expect(fields("mmsto:+15550100") == ["number: +15550100"])
        for text in ["tel:", "tel:abc", "tel:+", "smsto:", "sms:hello", "SMSTO::hi", "call 555-0100"] {
            #expect(summary(text).kind == .text, "\(text)")
        }
    }

    @Test("places, with range checks on the coordinates")
    func geo() {
        #expect(fields("geo:48.8584,2.2945") == ["latitude: 48.8584", "longitude: 2.2945"])
        #expect(fields("GEO:-33.8568,151.2153,58") == ["latitude: -33.8568", "longitude: 151.2153", "altitude: 58"])
        #expect(fields("geo:37.786971,-122.399677;u=35") == ["latitude: 37.786971", "longitude: -122.399677"])
        #expect(fields("geo:0,0?q=1600+Amphitheatre+Parkway%2C+CA")
                == ["latitude: 0", "longitude: 0", "query: 1600 Amphitheatre Parkway, CA"])
        for text in ["geo:91,0", "geo:0,181", "geo:-90.5,0", "geo:abc,def", "geo:1e1,2", "geo:nan,0", "geo:48.85",
                     "geo:1,2,3,4", "geo:1..2,3", "geo:", "geo:,"] {
            #expect(summary(text).kind == .text, "\(text)")
        }
    }

    @Test("Wi-Fi: fields in any order, normalised security, hidden networks")
    func wifi() {
        #expect(fields("WIFI:T:WPA;S:Home;P:correct horse;;")
                == ["ssid: Home", "security: WPA", "password: correct horse"])
        #expect(fields("WIFI:P:secret;H:true;S:Lab;T:wep;;")
                == ["ssid: Lab", "security: WEP", "password: secret", "hidden: yes"])
        #expect(fields("wifi:s:Guest;t:nopass;h:false;;") == ["ssid: Guest", "security: none"])
        #expect(fields("WIFI:S:Guest;;") == ["ssid: Guest", "security: none"])
        #expect(fields("WIFI:T:SAE;S:Office;P:x;;") == ["ssid: Office", "security: WPA3", "password: x"])
        #expect(fields("WIFI:T:WPA2-EAP;S:Corp;;") == ["ssid: Corp", "security: WPA-EAP"])
        #expect(fields("WIFI:S:Home;P:secret") == ["ssid: Home", "password: secret"], "unterminated")
    }

    @Test("Wi-Fi escapes and quoted values")
    func wifiEscapes() {
        #expect(fields(#"WIFI:S:Caf\;e\:\\ \"Net\";T:WPA;P:p\,a\;ss;;"#)
                == [#"ssid: Caf;e:\ "Net""#, "security: WPA", "password: p,a;ss"])
        #expect(fields(#"WIFI:S:"Home";P:"0123456789";;"#) == ["ssid: Home", "password: 0123456789"])
        #expect(fields(#"WIFI:S:a\"b\";;"#) == [#"ssid: a"b""#, "security: none"])
        #expect(fields("WIFI:S:Tail\\") == ["ssid: Tail\\", "security: none"], "a lone backslash at the end")
    }

    @Test("text that only resembles Wi-Fi", arguments: [
        "WIFI:", "WIFI:T:WPA;P:secret;;", "WIFI:S:;;", "WIFI:T:WPA;;S:Home;;", "my WIFI:S:Home;;", "WIFI:Shome",
    ])
    func notWifi(text: String) {
        #expect(summary(text).kind == .text)
    }

    @Test("vCards: folded lines, typed numbers, N when FN is missing, quoted-printable")
    func vcard() {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;John;;Dr.;\r\nFN:John Doe\r\nORG:Acme\\, Inc.;Sales\r\n"
            + "TEL;TYPE=cell:+1 555 0100\r\nitem1.TEL;TYPE=\"work,voice\":+1 555 0199\r\n"
            + "EMAIL;TYPE=INTERNET:john.doe@exam\r\n ple.com\r\nNOTE:line\\nbreak\r\nEND:VCARD\r\n"
        #expect(fields(card) == ["name: John Doe", "phone: +1 555 0100", "phone: +1 555 0199",
                                 "email: john.doe@example.com", "organization: Acme, Inc., Sales"])
        #expect(fields("begin:vcard\nN:Doe;Jane;;Dr.;PhD\nTEL;VALUE=uri:tel:+1-555-0100\n")
                == ["name: Dr. Jane Doe PhD", "phone: +1-555-0100"], "vCard 4, unterminated")
        #expect(fields("BEGIN:VCARD\nVERSION:2.1\nFN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Ren=C3=A9e\nEND:VCARD")
                == ["name: Renée"])
        #expect(fields("BEGIN:VCARD\nFN:Outer\nAGENT:\nBEGIN:VCARD\nFN:Inner\nTEL:1\nEND:VCARD\nEND:VCARD")
                == ["name: Outer"], "a nested card's details are not the outer card's")
    }

    @Test("MECARD contacts with escapes")
    func mecard() {
        #expect(fields("MECARD:N:Doe,John;TEL:+15550100;TEL:+15550199;EMAIL:john@example.com;ORG:Smith\\, Jones\\; Co;;")
                == ["name: John Doe", "phone: +15550100", "phone: +15550199", "email: john@example.com",
                    "organization: Smith, Jones; Co"])
        #expect(fields(#"MECARD:N:O\'Brien\, Jr.,Pat;URL:https\://example.com;ADR:,,1 Main St,Springfield,,,USA"#)
                == ["name: Pat O'Brien, Jr.", "address: 1 Main St, Springfield, USA", "url: https://example.com"])
    }

    @Test("text that only resembles a contact", arguments: [
        "Please scan BEGIN:VCARD and save it", "BEGIN:VCARDS are old", "BEGIN:VCARD\nVERSION:3.0\nEND:VCARD",
        "MECARD:;;", "MECARD:NOTE:hello;;",
    ])
    func notContact(text: String) {
        #expect(summary(text).kind == .text)
    }

    @Test("events: the first VEVENT, times as ISO 8601, alarms ignored")
    func event() {
        #expect(fields("BEGIN:VEVENT\nSUMMARY:Launch party\nDTSTART:20261130T190000Z\nDTEND:20261130T230000Z\n"
                       + "LOCATION:Hall 2\\, Main St\nEND:VEVENT")
                == ["summary: Launch party", "start: 2026-11-30T19:00:00Z", "end: 2026-11-30T23:00:00Z",
                    "location: Hall 2, Main St"])
        let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nEND:VTIMEZONE\r\n"
            + "BEGIN:VEVENT\r\nBEGIN:VALARM\r\nSUMMARY:Reminder\r\nEND:VALARM\r\nSUMMARY:Team\r\n  offsite\r\n"
            + "DTSTART;TZID=Europe/Berlin:20260301T090000\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nSUMMARY:Second\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        #expect(fields(calendar) == ["summary: Team offsite", "start: 2026-03-01T09:00:00[Europe/Berlin]"])
        #expect(fields("BEGIN:VEVENT\nSUMMARY:Holiday\nDTSTART;VALUE=DATE:20261224\nDTEND:20261399T250000Z")
                == ["summary: Holiday", "start: 2026-12-24", "end: 20261399T250000Z"], "unclear dates as written")
        for text in ["BEGIN:VCALENDAR\nVERSION:2.0\nEND:VCALENDAR", "Add BEGIN:VEVENT to your file",
                     "BEGIN:VEVENT\nEND:VEVENT", "BEGIN:VEVENTS\nSUMMARY:x"] {
            #expect(summary(text).kind == .text, "\(text)")
        }
    }

    @Test("product codes with a valid check digit", arguments: [
        ("ean13", "4006381333931", "EAN-13"), ("ean13", "9780306406157", "ISBN-13"), ("isbn13", "9791032305690", "ISBN-13"),
        ("ean8", "96385074", "EAN-8"), ("upca", "036000291452", "UPC-A"), ("upce", "01234565", "UPC-E"),
        ("isbn10", "0306406152", "ISBN-10"), ("isbn10", "080442957X", "ISBN-10"), ("qr", "5901234123457", "EAN-13"),
    ])
    func product(symbology: String, code: String, type: String) {
        #expect(fields(code, symbology) == ["code: \(code)", "type: \(type)"])
    }

    @Test("a GS1 DataBar is a product: its GTIN-14, without the AI")
    func databarProduct() {
        #expect(fields("0109501101530003", "databar") == ["code: 09501101530003", "type: GTIN-14"])
        #expect(summary("0109501101530004", "databar").kind == .text, "wrong check digit")
        #expect(summary("1009501101530003", "databar").kind == .text, "not AI 01")
        #expect(fields("0115012345678907", "databar-ltd") == ["code: 15012345678907", "type: GTIN-14"])
    }

    @Test("product-like numbers that are not products")
    func notProducts() {
        #expect(fields("0036000291452", "upca") == ["code: 036000291452", "type: UPC-A"], "UPC-A read as EAN-13")
        for (symbology, text) in [("ean13", "4006381333932"), ("ean8", "96385075"), ("upce", "01234564"), ("upce", "21234565"),
                                  ("isbn10", "0306406153"), ("isbn10", "08044295X7"), ("qr", "036000291452"),
                                  ("code128", "4006381333931"), ("text", "4006381333931"), ("ean13", "400638133393")] {
            #expect(summary(text, symbology).kind == .text, "\(symbology) \(text)")
        }
    }

    @Test("plain text, empty payloads and binary data")
    func textAndBinary() {
        #expect(summary("Hello, world") == ContentSummary(kind: .text))
        #expect(ContentClassifier.classify(bytes: [], text: "", symbology: "qr") == ContentSummary(kind: .text))
        #expect(ContentClassifier.classify(bytes: [], text: nil, symbology: "qr") == ContentSummary(kind: .text))
        #expect(summary(" \n\t ").kind == .text)
        let invalid: [UInt8] = [0xFF, 0xFE, 0x00, 0x80, 0x01]
        let decoded = ContentClassifier.classify(bytes: invalid, text: TextDecoding.text(from: invalid), symbology: "qr")
        #expect(decoded == ContentSummary(kind: .binary, fields: [.init(name: "size", value: "5")]))
    }

    @Test("hostile input is classified in one pass and keeps its NUL bytes", .timeLimit(.minutes(1)))
    func hostile() {
        let megabyte = 1 << 20
        let repeats = String(repeating: "WIFI:S:", count: megabyte / 7)
        let wifi = summary(repeats)
        #expect(wifi.kind == .wifi)
        #expect(wifi.value("ssid")?.utf8.count == repeats.utf8.count - 7)
        #expect(summary("WIFI:S:" + String(repeating: "\\", count: megabyte)).kind == .wifi)
        #expect(summary("MECARD:" + String(repeating: "N:", count: megabyte / 2)).kind == .contact)
        #expect(summary(String(repeating: "BEGIN:VCARD\n", count: megabyte / 12)).kind == .text)
        #expect(summary("BEGIN:VCALENDAR\n" + String(repeating: "BEGIN:VEVENT\n", count: megabyte / 13)).kind == .text)
        #expect(summary("BEGIN:VCARD\nFN:" + String(repeating: "a\n ", count: megabyte / 3)).kind == .contact)
        #expect(summary("geo:" + String(repeating: "1,", count: megabyte / 2)).kind == .text)
        #expect(summary("mailto:" + String(repeating: "a@b,", count: megabyte / 4)).kind == .email)
        #expect(summary("sms:" + String(repeating: "%", count: megabyte)).kind == .text)
        #expect(summary("https://example.com/" + String(repeating: "a", count: megabyte)).kind == .url)
        #expect(summary(String(repeating: "a", count: megabyte) + "@example.com").kind == .text)
        #expect(fields("WIFI:S:a\u{0}b;;") == ["ssid: a\u{0}b", "security: none"])
        #expect(summary("tel:+1555\u{0}0100").kind == .text)
    }
}
