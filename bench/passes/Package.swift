// swift-tools-version:6.0
// The measurement behind Sources/QRSealKit/Detect/Plan/PassPlan.swift: every candidate pass on
// every image, with its outcome and time. See bench/README.md, "How the passes were chosen".
// It reads QRSealKit's internal pass types, so it is built with testing enabled:
//   swift build -c release -Xswiftc -enable-testing --package-path bench/passes
import PackageDescription

let package = Package(
    name: "passes",
    dependencies: [.package(name: "qrseal", path: "../..")],
    targets: [
        .executableTarget(name: "passes", dependencies: [.product(name: "QRSealKit", package: "qrseal")]),
    ]
)
