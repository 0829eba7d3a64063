import QRSealCLI

import Foundation

exit(QRSealCLI.run(arguments: QRSealCLI.processArguments(), console: .standard))
