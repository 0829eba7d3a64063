"""YUV4MPEG2 streams made from pictures, for `qrseal-desktop --stream -` in the tests and the
bench, with Python's standard library and ImageMagick's `convert` (installed by `make setup`
for the other tests already): no ffmpeg, no Pillow.

    frame = compose_frame(1280, 720, [("code.png", 100, 120, 400)])   # luma bytes
    with open("s.y4m", "wb") as out:
        writer = Y4MWriter(out, 1280, 720, fps=30)
        writer.write(blank_frame(1280, 720), count=15)                 # half a second of nothing
        writer.write(frame, count=60)                                  # then the code, 2 s

Frames are 8-bit luma; the writer adds neutral chroma (C420jpeg, as `ffmpeg -f yuv4mpegpipe`
writes by default), so the stream is grey pictures of the images.
"""

import subprocess


class Y4MWriter:
    """Writes a YUV4MPEG2 header, then frames of luma bytes (width × height) with neutral
    4:2:0 chroma."""

    def __init__(self, out, width, height, fps=30, colorspace="420jpeg"):
        if colorspace not in ("420jpeg", "mono"):
            raise ValueError("colorspace must be 420jpeg or mono")
        self.out = out
        self.width = width
        self.height = height
        self.chroma = b"" if colorspace == "mono" else \
            b"\x80" * (2 * ((width + 1) // 2) * ((height + 1) // 2))
        out.write(b"YUV4MPEG2 W%d H%d F%d:1 Ip A1:1 C%s\n" % (width, height, fps, colorspace.encode()))
        self.frames = 0

    def write(self, luma, count=1):
        if len(luma) != self.width * self.height:
            raise ValueError("a frame of %d bytes for %dx%d" % (len(luma), self.width, self.height))
        for _ in range(count):
            self.out.write(b"FRAME\n")
            self.out.write(luma)
            self.out.write(self.chroma)
            self.frames += 1

    def flush(self):
        self.out.flush()


def blank_frame(width, height, grey=235):
    """A plain frame (a light grey wall)."""
    return bytes([grey]) * (width * height)


def compose_frame(width, height, placements, background="gray92"):
    """One luma frame: each (image path, x, y, size) of `placements` drawn at x, y, scaled so
    that its longer side is `size` pixels (None: as it is), on a plain background."""
    command = ["convert", "-size", "%dx%d" % (width, height), "xc:%s" % background]
    for path, x, y, size in placements:
        command += ["(", path]
        if size:
            command += ["-filter", "point", "-resize", "%dx%d" % (size, size)]
        command += [")", "-geometry", "+%d+%d" % (x, y), "-composite"]
    command += ["-colorspace", "gray", "-depth", "8", "gray:-"]
    result = subprocess.run(command, capture_output=True)
    if result.returncode != 0:
        raise RuntimeError("convert: %s" % result.stderr.decode("utf-8", "replace").strip())
    if len(result.stdout) != width * height:
        raise RuntimeError("convert gave %d bytes for %dx%d" % (len(result.stdout), width, height))
    return result.stdout


def frame_from_image(path, width, height, background="gray92"):
    """One luma frame of an image, scaled to fit width × height and centred."""
    command = ["convert", path, "-resize", "%dx%d" % (width, height), "-background", background,
               "-gravity", "center", "-extent", "%dx%d" % (width, height),
               "-colorspace", "gray", "-depth", "8", "gray:-"]
    result = subprocess.run(command, capture_output=True)
    if result.returncode != 0:
        raise RuntimeError("convert: %s" % result.stderr.decode("utf-8", "replace").strip())
    return result.stdout


def text_card(path, text, width=520, pointsize=34):
    """A PNG of dark text on a white card (the bench's "text card"), with ImageMagick."""
    result = subprocess.run(["convert", "-size", "%dx" % width, "-background", "white", "-fill", "black",
                             "-font", "DejaVu-Sans", "-pointsize", str(pointsize),
                             "caption:%s" % text, "-bordercolor", "white", "-border", "24", path],
                            capture_output=True)
    if result.returncode != 0:
        raise RuntimeError("convert: %s" % result.stderr.decode("utf-8", "replace").strip())
    return path


def chunks(width, height, segments, fps=30):
    """The stream as chunks for App.feed: the header, then one chunk a frame (so that feed
    can pace them); segments as for stream()."""
    chroma = b"\x80" * (2 * ((width + 1) // 2) * ((height + 1) // 2))
    yield b"YUV4MPEG2 W%d H%d F%d:1 Ip A1:1 C420jpeg\n" % (width, height, fps)
    for frame, count in segments:
        for _ in range(count):
            yield b"FRAME\n" + frame + chroma


def stream(path, width, height, segments, fps=30):
    """Writes a whole stream file: segments is a list of (luma frame, count)."""
    with open(path, "wb") as out:
        writer = Y4MWriter(out, width, height, fps)
        for frame, count in segments:
            writer.write(frame, count)
    return path
