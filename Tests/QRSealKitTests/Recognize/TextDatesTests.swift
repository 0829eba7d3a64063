import Testing
@testable import QRSealKit

/// Dates, times and postal addresses found in recognised text, and text that only looks like them.
@Suite("Recognize: dates and addresses in text")
struct TextDatesTests {
    func line(_ text: String) -> TextLine {
        let box = Region(x: 0, y: 0, width: 10, height: 10)
        return TextLine(words: text.split(separator: " ").map { TextWord(text: String($0), confidence: 90, box: box) },
                        confidence: 90, box: box)
    }

    func fields(_ text: String) -> [[String: String]] {
        line(text).contents.filter { $0.kind == .date || $0.kind == .address }.map { summary in
            Dictionary(summary.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
                .merging(["kind": summary.kind.rawValue]) { a, _ in a }
        }
    }

    @Test("dates in the common written forms, as ISO dates", arguments: [
        ("Due 2026-12-01.", "2026-12-01"), ("on 1 December 2026", "2026-12-01"), ("December 1, 2026", "2026-12-01"),
        ("Tuesday, 1st Dec. 2026", "2026-12-01"), ("Dec 1st 2026", "2026-12-01"), ("am 01.12.2026", "2026-12-01"),
        ("(2026/12/01)", "2026-12-01"), ("29 February 2028", "2028-02-29"), ("25/12/2026", "2026-12-25"),
        ("12/25/2026", "2026-12-25"), ("5 Sept 2026", "2026-09-05"), ("07/07/2026", "2026-07-07"),
    ])
    func dates(_ text: String, _ iso: String) {
        let found = fields(text)
        #expect(found.count == 1 && found.first?["kind"] == "date" && found.first?["date"] == iso, "\(found)")
    }

    @Test("a slashed date that reads both ways gives both, and no date field")
    func ambiguous() throws {
        let found = try #require(fields("Invoice of 12/01/2026").first)
        #expect(found["date"] == nil)
        #expect(found["month_first"] == "2026-12-01" && found["day_first"] == "2026-01-12")
        #expect(found["text"] == "12/01/2026")
    }

    @Test("times with a date, in 24-hour form, and alone only with am or pm", arguments: [
        ("2026-12-01T14:30:00Z", "2026-12-01", "14:30:00"), ("1 December 2026, 14:30", "2026-12-01", "14:30"),
        ("December 1, 2026 at 2:30 pm", "2026-12-01", "14:30"), ("2026-12-01 9:05", "2026-12-01", "09:05"),
        ("doors open 7:15pm sharp", nil, "19:15"), ("until 12 a.m.", nil, "00:00"), ("from 12:30 PM", nil, "12:30"),
    ])
    func times(_ text: String, _ date: String?, _ time: String) throws {
        let found = try #require(fields(text).first, "\(text)")
        #expect(found["date"] == date && found["time"] == time, "\(found)")
    }

    @Test("an ISO time keeps its zone")
    func zone() throws {
        #expect(try #require(fields("2026-12-01T14:30+01:00").first)["zone"] == "+01:00")
        #expect(try #require(fields("2026-12-01T14:30:05.250Z").first)["zone"] == "Z")
    }

    @Test("numbers that only resemble a date or a time stay text", arguments: [
        "version 1.2.3 of 2024", "room 12 at 10:30", "page 10-12 of 30", "30 February 2026", "2026-13-01", "13/13/2026",
        "12/01/26", "1 Decembers 2026", "Mar 2026", "10:75 pm", "25:00", "John 3:16", "2026-12-01T25:00", "May 2026 be good",
        "2026-12-01Tnoon", "call 2026 12 01", "13 pm", "12.13.2026",
    ])
    func notDates(_ text: String) {
        #expect(fields(text).isEmpty, "\(text): \(fields(text))")
    }

    @Test("a date is not also a phone number, and a phone beside it is still one")
    func notPhone() {
        #expect(line("2026-12-01").contents.map(\.kind) == [.date])
        #expect(line("12/01/2026").contents.map(\.kind) == [.date])
        #expect(line("on 2026-12-01 call +44 20 7946 0958").contents.map(\.kind) == [.date, .phone])
        #expect(line("call +44 20 7946 0958 on 1 December 2026").contents.map(\.kind) == [.phone, .date])
    }

    @Test("postal codes of the forms that cannot be numbers make a line an address", arguments: [
        ("10 Downing Street, London SW1A 2AA", "SW1A 2AA", "GB"), ("Manchester M1 1AE", "M1 1AE", "GB"),
        ("Ottawa ON K1A 0B1", "K1A 0B1", "CA"), ("Springfield, IL 62704", "62704", "US"),
        ("Washington, DC 20500-0003.", "20500-0003", "US"), ("Girobank GIR 0AA", "GIR 0AA", "GB"),
    ])
    func addresses(_ text: String, _ code: String, _ country: String) throws {
        let found = try #require(fields(text).first, "\(text)")
        #expect(found["kind"] == "address" && found["postal_code"] == code && found["country"] == country, "\(found)")
        #expect(found["address"] == TextBlock.trimmedToken(text))
    }

    @Test("codes that only look like postal codes stay text", arguments: [
        "10115 Berlin", "IL 62704", "Springfield IL 62704", "model AB1 2CI", "QA1 1AA", "D1A 1A1", "K1A 0B", "ZZ 12345",
        "Ottawa K1A0B1", "sw1a 2aa", "ship A1 2BC? no, AJ1 1AA", "Seattle, WA 9810",
        // Found by the text fuzz target: a parenthesis between the two halves.
        "London SW2A (2AA", "Ottawa K1A. 0B1", "Springfield, IL, 62704",
    ])
    func notAddresses(_ text: String) {
        #expect(fields(text).filter { $0["kind"] == "address" }.isEmpty, "\(text): \(fields(text))")
    }

    @Test("a block is filed under date when a date is the first kind in it")
    func blockKind() {
        let block = TextBlock(lines: [line("Meeting notes"), line("1 December 2026 at 10:00, room 4")], confidence: 90,
                              box: Region(x: 0, y: 0, width: 10, height: 10))
        #expect(block.kind == .date)
        #expect(block.contents.first?.value("time") == "10:00")
    }
}
