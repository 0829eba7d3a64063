import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// The stand-in for `tesseract::UnicharAmbigs::LoadUniversal` (Sources/CLoader/tesseract.c),
/// which saves about 100 ms of CPU at every Tesseract start (bench/README.md, "Text
/// recognition"), holds only while three facts about the installed libtesseract and our
/// binaries stay true. Nothing else would notice if one stopped: Tesseract would load its
/// table again and read the same, only slower; or, if the function's meaning changed, read
/// differently. So each is checked here.
@Suite("Recognize: the stand-in for Tesseract's ambiguity table")
struct TesseractStandInTests {
    static let symbol = "_ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_"

    /// The libtesseract.so.5 the loader finds, as CLoader opens it.
    static var library: String? {
        guard let listing = try? Tools.run("/sbin/ldconfig", ["-p"]).stdoutText else { return nil }
        for line in listing.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("libtesseract.so.5 ") {
            if let arrow = line.range(of: "=> ") { return String(line[arrow.upperBound...]) }
        }
        return nil
    }

    static let pages = Tools.packageRoot.appendingPathComponent("Tests/Images/text").path

    @Test("libtesseract still exports the function and calls it through its PLT, so an executable's definition wins",
          .enabled(if: Tools.which("readelf") != nil))
    func libraryCallsThroughPLT() throws {
        let path = try #require(Self.library, "libtesseract.so.5 is not installed")
        let symbols = try Tools.run("readelf", ["--dyn-syms", "--wide", path]).stdoutText
        #expect(symbols.split(separator: "\n").contains { $0.hasSuffix(" " + Self.symbol) && $0.contains(" FUNC ") },
                "\(path) no longer exports \(Self.symbol): the stand-in replaces nothing")
        // A call within the library is interposable only through a relocation of its own.
        let relocations = try Tools.run("readelf", ["--relocs", "--wide", path]).stdoutText
        #expect(relocations.split(separator: "\n").contains { $0.contains("R_X86_64_JUMP_SLOT") && $0.contains(Self.symbol) }
                    || relocations.split(separator: "\n").contains { $0.contains("R_AARCH64_JUMP_SLOT") && $0.contains(Self.symbol) },
                "\(path) binds its calls to \(Self.symbol) itself (-Bsymbolic?): the stand-in is never called")
    }

    @Test("the built qrseal and qrseal-engine export the stand-in", .enabled(if: Tools.which("nm") != nil))
    func executablesExportIt() throws {
        let folder = URL(fileURLWithPath: Tools.qrseal).deletingLastPathComponent()
        for name in ["qrseal", "qrseal-engine"] {
            let nm = try Tools.run("nm", ["-D", "--defined-only", folder.appendingPathComponent(name).path]).stdoutText
            #expect(nm.contains(" T \(Self.symbol)\n"), "\(name) does not export the stand-in (--export-dynamic-symbol in Package.swift)")
        }
    }

    @Test("qrseal scan --text binds libtesseract's call to qrseal's stand-in")
    func scanBindsTheStandIn() throws {
        var env = Tools.environment()
        env["LD_DEBUG"] = "bindings"
        let r = try Tools.run(Tools.qrseal, ["scan", "--text-only", "--no-store", "--raw", Self.pages + "/sans.png"],
                              environment: env)
        #expect(r.status == 0, "\(r.stderr.suffix(2000))")
        let bindings = r.stderr.split(separator: "\n").filter { $0.contains("`\(Self.symbol)'") }
        #expect(bindings.count == 1, "\(bindings)")
        #expect(bindings.allSatisfy { $0.contains("libtesseract.so.5 [0] to ") && $0.contains("/qrseal [0]: normal symbol") },
                "\(bindings)")
        // In this process, the same: the test bundle exports it too.
        _ = try TextRecognizer()
        #expect(TextRecognizer.skipsLegacyAmbiguities)
    }

    /// A C program that starts Tesseract as TextRecognizer does (LSTM only) and prints the
    /// text of each PGM image given, with the start's CPU time on standard error (to compare
    /// by hand: about 25 ms with the stand-in, 165-270 ms without, at load 10); built with
    /// `-DSTAND_IN`, it carries the same stand-in as CLoader and says whether it was called.
    static let harness = #"""
    #include <stdio.h>
    #include <stdlib.h>
    #include <time.h>
    #include <tesseract/capi.h>
    #ifdef STAND_IN
    static int called;
    __attribute__((visibility("default"))) void stand_in(void *a, const void *b, void *c)
        __asm__("_ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_");
    void stand_in(void *a, const void *b, void *c) { (void)a; (void)b; (void)c; called = 1; }
    #endif
    static double cpu_ms(void) {
        struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
    }
    int main(int argc, char **argv) {
        TessBaseAPI *api = TessBaseAPICreate();
        double start = cpu_ms();
        if (TessBaseAPIInit2(api, argv[1], "eng", OEM_LSTM_ONLY) != 0) return 2;
        fprintf(stderr, "start %.1f ms\n", cpu_ms() - start);
    #ifdef STAND_IN
        fprintf(stderr, "stand-in %s\n", called ? "called" : "not called");
    #endif
        for (int i = 2; i < argc; i++) {
            FILE *f = fopen(argv[i], "rb");
            int w, h, max;
            if (!f || fscanf(f, "P5 %d %d %d", &w, &h, &max) != 3 || fgetc(f) == EOF) return 3;
            unsigned char *pixels = malloc((size_t)w * h);
            if (fread(pixels, 1, (size_t)w * h, f) != (size_t)w * h) return 3;
            fclose(f);
            TessBaseAPISetImage(api, pixels, w, h, 1, w);
            char *text = TessBaseAPIGetUTF8Text(api);
            printf("== %s\n%s", argv[i], text ? text : "");
            TessDeleteText(text);
            free(pixels);
        }
        TessBaseAPIEnd(api);
        TessBaseAPIDelete(api);
        return 0;
    }
    """#

    static var compiler: String? { Tools.which("cc") ?? Tools.which("clang") }

    @Test("Tesseract reads the same text with the stand-in as with its own table",
          .enabled(if: compiler != nil && FileManager.default.fileExists(atPath: "/usr/include/tesseract/capi.h")))
    func sameTextEitherWay() throws {
        let dir = try TempDir()
        let source = try dir.write("harness.c", Data(Self.harness.utf8))
        let cc = try #require(Self.compiler)
        let plain = dir.path("plain"), standIn = dir.path("stand-in")
        for (out, flags) in [(plain, [String]()), (standIn, ["-DSTAND_IN", "-rdynamic"])] {
            let built = try Tools.run(cc, ["-O1", "-o", out, source] + flags + ["-ltesseract"])
            #expect(built.status == 0, "\(built.stderr)")
        }
        var images: [String] = []
        for name in ["sans", "serif", "noisy", "small"] {
            let gray = try ImageDecoder().decode(Array(try Data(contentsOf: URL(fileURLWithPath: Self.pages + "/\(name).png"))))
            let pgm = Data("P5 \(gray.width) \(gray.height) 255\n".utf8) + Data(gray.pixels)
            images.append(try dir.write(name + ".pgm", pgm))
        }
        let data = TextRecognizer.defaultDataPath
        let own = try Tools.run(plain, [data] + images)
        let replaced = try Tools.run(standIn, [data] + images)
        #expect(own.status == 0 && replaced.status == 0, "\(own.stderr)\n\(replaced.stderr)")
        #expect(replaced.stderr.contains("stand-in called"), "\(replaced.stderr)")
        #expect(!own.stdoutText.isEmpty)
        #expect(own.stdoutText == replaced.stdoutText)
    }
}
