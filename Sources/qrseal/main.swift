import QRSealCLI

import FoundationEssentials
import Glibc

QRSealCLI.prepareProcess()
QRSealCLI.limitTextThreads()
exit(QRSealCLI.run(arguments: QRSealCLI.processArguments(), console: .standard))
