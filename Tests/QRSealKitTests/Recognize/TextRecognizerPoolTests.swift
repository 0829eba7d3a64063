import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Recognizers started on threads of their own and lent to the threads that read.
@Suite("Recognize: the pool of text recognizers")
struct TextRecognizerPoolTests {
    @Test("recognizers started ahead are lent, given back and lent again; the pool reads as one recognizer does")
    func lends() throws {
        let pool = TextRecognizerPool(layout: .page)
        pool.start(2)
        let first = try pool.take(), second = try pool.take()
        #expect(first !== second)
        #expect(!pool.isStarting)
        pool.give(first)
        pool.give(second)
        let page = try TextRecognizerTests().image("sans")
        let alone = try TextRecognizer(layout: .page).recognize(page)
        #expect(try pool.recognize(page).flatMap(\.lines).map(\.text) == alone.flatMap(\.lines).map(\.text))
        // Both recognizers are idle again: two more takes start nothing new.
        let again = [try pool.take(), try pool.take()]
        #expect(again.contains { $0 === first } && again.contains { $0 === second })
    }

    @Test("a recognizer that fails to start is the failure of the take that finds none, as a typed error")
    func startFailure() {
        let pool = TextRecognizerPool(languages: ["zzz"])
        pool.start(1)
        pool.finish()
        #expect(!pool.isStarting)
        #expect(throws: TextRecognitionError.self) { try pool.take() }
        do {
            _ = try pool.take()
        } catch {
            guard case .missingLanguage = error else { Issue.record("\(error)"); return }
        }
    }
}
