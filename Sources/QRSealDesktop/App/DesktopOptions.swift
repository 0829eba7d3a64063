/// What `qrseal-desktop` is asked on its command line. Few options: the app is driven from
/// its window; these choose where frames come from and which inbox it keeps.
struct DesktopOptions: Equatable {
    enum Source: Equatable {
        /// The first camera that can capture, or the one named.
        case camera(String?)
        /// The frames of a YUV4MPEG2 stream from a file or standard input ("-").
        case stream(String)
    }

    var source: Source = .camera(nil)
    var inbox: String?
    var style: Application.Style = .system
    var page: String = "scan"
    var showHelp = false
    var showVersion = false

    static let usage = """
        usage: qrseal-desktop [--stream FILE|-] [--device PATH] [--inbox PATH] [--style light|dark]
                              [--page scan|inbox|compose|keys]

        The qrseal scanner, inbox, composer and keyring in a window.

          --stream FILE|-   scan the frames of a YUV4MPEG2 stream (- for standard input), not a camera
          --device PATH     scan from this V4L2 camera (default: the first that can capture)
          --inbox PATH      keep what is read in the inbox at PATH (default: $QRSEAL_INBOX,
                            else $XDG_DATA_HOME/qrseal/inbox.sqlite), as the qrseal command does
          --style STYLE     light or dark, instead of the system's style
          --page PAGE       the page to open on (default scan)
          --help            show this help
          --version         show the version

        """

    struct UsageError: Error { let message: String }

    init() {}

    init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        func value(_ name: String) throws(UsageError) -> String {
            guard let v = rest.popFirst() else { throw UsageError(message: "\(name) needs a value") }
            return v
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--stream": source = .stream(try value(argument))
            case "--device": source = .camera(try value(argument))
            case "--inbox": inbox = try value(argument)
            case "--style":
                switch try value(argument) {
                case "light": style = .light
                case "dark": style = .dark
                case "system": style = .system
                case let other: throw UsageError(message: "--style must be light, dark or system, not '\(other)'")
                }
            case "--page":
                let name = try value(argument)
                guard ["scan", "inbox", "compose", "keys"].contains(name) else {
                    throw UsageError(message: "--page must be scan, inbox, compose or keys, not '\(name)'")
                }
                page = name
            case "--help", "-h": showHelp = true
            case "--version": showVersion = true
            default: throw UsageError(message: "unknown argument '\(argument)'")
            }
        }
    }
}
