import QRSealDesktop

import Foundation

exit(QRSealDesktop.main(arguments: Array(CommandLine.arguments.dropFirst())))
