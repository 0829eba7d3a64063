import QRSealCLI

import Foundation

QRSealCLI.limitTextThreads()
exit(QRSealCLI.run(arguments: QRSealCLI.processArguments(), console: .standard))
