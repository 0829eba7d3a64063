import QRSealDesktop

import FoundationEssentials
import Glibc

exit(QRSealDesktop.main(arguments: Array(CommandLine.arguments.dropFirst())))
