extension TextBlock {
    /// Whether a person would call the block noise rather than text, as Tesseract reads
    /// fragments into the texture of a photo, a pattern or the edge of a code: fewer than
    /// three letters or digits in all (a stray "a", ">?", "ht"), or a confidence under 25
    /// with nothing in it of a kind worth keeping (a link, an address, a date…). A printed
    /// sealed message is never noise: a misread digit in it must fail to open, not vanish.
    public var isNoise: Bool {
        guard sealedArmor == nil else { return false }
        let alphanumerics = text.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.count
        if alphanumerics < 3 { return true }
        return confidence < 25 && contents.isEmpty
    }
}
