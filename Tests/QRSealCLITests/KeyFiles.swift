import Foundation
import Testing
import TestSupport

extension TempDir {
    /// A new key made by `qrseal keygen` in this directory; its path.
    func newKey(_ name: String = "k.key") -> String {
        let path = path(name)
        #expect(qrseal(["keygen", "-o", path]).status == 0)
        return path
    }
}
