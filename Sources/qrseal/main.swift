import QRSealCLI

import Foundation

QRSealCLI.prepareProcess()
QRSealCLI.limitTextThreads()
exit(QRSealCLI.run(arguments: QRSealCLI.processArguments(), console: .standard))
