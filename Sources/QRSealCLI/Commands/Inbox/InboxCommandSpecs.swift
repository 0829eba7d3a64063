import QRSealKit

/// The `inbox` and `keys` commands, declared as data like the others.
enum InboxCommandSpecs {
    static let filterOptions = [
        OptionSpec(long: "kind", value: "KIND",
                   help: "Only items of this kind: sealed, recipient, url, email, phone, sms, geo, wifi, contact, event, product, text, binary, "
                       + "date, address (these two in recognised text).",
                   completes: .choices(ContentKind.allCases.map(\.rawValue))),
        OptionSpec(long: "since", value: "DATE", help: "Only items received at or after DATE (YYYY-MM-DD[THH:MM], or 7d, 12h ago)."),
        OptionSpec(long: "until", value: "DATE", help: "Only items received before DATE."),
        OptionSpec(long: "search", value: "TEXT", help: "Only items whose text or label contains TEXT (any case)."),
        OptionSpec(long: "pinned", help: "Only pinned items."),
    ]

    static let list = CommandSpec(
        name: "inbox list", abstract: "List kept items, newest first.", arguments: "",
        options: filterOptions + [
            OptionSpec(long: "limit", value: "N", help: "Show at most N items (default 50; 0 for all)."),
            OptionSpec(long: "waiting", help: "List the messages waiting for parts instead of items, oldest first."),
            OptionSpec(long: "json", help: "One JSON object per item (or waiting message) per line."),
            Locations.inboxOption,
        ])
    static let show = CommandSpec(
        name: "inbox show", abstract: "Show one item in full, with what its content says.", arguments: "ID",
        options: [OptionSpec(long: "json", help: "As one JSON object."), Locations.inboxOption])
    static let open = CommandSpec(
        name: "inbox open", abstract: "Open a kept sealed message with a key.", arguments: "ID",
        options: [
            OptionSpec(long: "output", short: "o", value: "PATH", help: "Write the opened text or file to PATH."),
            Commands.forceOption,
        ] + KeySources.options + [Commands.maxScryptOption, Locations.inboxOption])
    static let remove = CommandSpec(
        name: "inbox rm", abstract: "Remove items by id, or unpinned ones older than a duration.", arguments: "[ID...]",
        options: [
            OptionSpec(long: "older-than", value: "DURATION", help: "Remove unpinned items older than DURATION (e.g. 30d, 12h, 1.5d, 2w)."),
            OptionSpec(long: "waiting", help: "Remove messages still waiting for parts, with their parts: those whose "
                       + "ids (as 'inbox list' shows them) are given, or all."),
            OptionSpec(long: "dry-run", help: "List the items IDs or --older-than would remove, as 'inbox list' does, "
                       + "and remove nothing."),
            OptionSpec(long: "yes", short: "y", help: "Remove without asking. On a terminal, --older-than and --waiting "
                       + "without IDs ask first."),
            Locations.inboxOption,
        ])
    static let label = CommandSpec(
        name: "inbox label", abstract: "Set an item's label (an empty TEXT clears it).", arguments: "ID TEXT",
        options: [Locations.inboxOption])
    static let pin = CommandSpec(
        name: "inbox pin", abstract: "Pin an item: kept by 'inbox rm --older-than'.", arguments: "ID",
        options: [Locations.inboxOption])
    static let unpin = CommandSpec(
        name: "inbox unpin", abstract: "Unpin an item.", arguments: "ID", options: [Locations.inboxOption])
    static let count = CommandSpec(
        name: "inbox count", abstract: "Count items, in all and by kind, and messages waiting for parts.", arguments: "",
        options: filterOptions + [OptionSpec(long: "json", help: "As one JSON object."), Locations.inboxOption])
    static let export = CommandSpec(
        name: "inbox export", abstract: "Write every item, and the parts of messages still waiting, as JSON lines or CSV.", arguments: "",
        options: [
            OptionSpec(long: "format", value: "json|csv", help: "Export format (default json)."),
            OptionSpec(long: "output", short: "o", value: "FILE",
                       help: "Write to FILE, mode 0600 (default: standard output)."),
            Commands.forceOption,
            Locations.inboxOption,
        ])
    static let importItems = CommandSpec(
        name: "inbox import", abstract: "Add the items and waiting parts of an export (JSON or CSV); all or nothing.", arguments: "FILE | -",
        options: [Locations.inboxOption])

    static let keysAdd = CommandSpec(
        name: "keys add", abstract: "Put a key file or age identity file in the keyring, tried on every sealed message.", arguments: "FILE | -",
        options: [OptionSpec(long: "name", value: "NAME", help: "Name the key (default: the file's name without .key; for -, key- and its fingerprint).")])
    static let keysList = CommandSpec(
        name: "keys list", abstract: "List the keyring's keys by name and fingerprint (and public key, for identities).",
        arguments: "", options: [namesOption])
    /// `keys list --names`, `contacts list --names`: what shell completion offers for a NAME.
    static let namesOption = OptionSpec(
        long: "names", help: "Print only the names, one a line, opening no file: for scripts and shell completion.")
    static let keysRemove = CommandSpec(
        name: "keys rm", abstract: "Remove a key from the keyring.", arguments: "NAME", options: [], completes: .names(.keys))

    static let inbox = [list, show, open, remove, label, pin, unpin, count, export, importItems]
    static let keys = [keysAdd, keysList, keysRemove]
    static let all = inbox + keys
}
