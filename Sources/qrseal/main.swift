import QRSealCLI

import Foundation

exit(QRSealCLI.run(arguments: Array(CommandLine.arguments.dropFirst()), console: .standard))
