import QRSealKit

/// Detection options of `qrseal scan` beyond --symbology (being written).
enum DetectOptions {
    static let options: [OptionSpec] = []

    /// Applies the options to the detector.
    static func configure(_ args: ParsedArguments, _ detector: inout Detector) throws(CLIError) {}
}
