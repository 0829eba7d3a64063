import QRSealKit

/// The message and hints for each way a camera or stream fails: what went wrong with which
/// device or stream, and what to do about it.
enum CaptureMessages {
    static let doctorHint = "'qrseal doctor' lists the video devices and what each can do"
    static let groupHint = "add yourself to the 'video' group: sudo usermod -aG video $USER, then log out and in again"
    static let ffmpegHint = "convert with ffmpeg: ffmpeg -i INPUT -f yuv4mpegpipe -pix_fmt gray - | qrseal scan --stream -"

    static func error(_ error: CaptureError, name: String, isCamera: Bool) -> CLIError {
        CLIError(message: "\(name): \(error.description)", hints: hints(error, name: name, isCamera: isCamera))
    }

    static func hints(_ error: CaptureError, name: String, isCamera: Bool) -> [String] {
        switch error {
        case .noDevice:
            return ["is the camera plugged in? " + doctorHint]
        case .notADevice, .notVideoDevice:
            return ["a camera is a /dev/videoN device; " + doctorHint,
                    "to read recorded frames, give a YUV4MPEG2 stream with --stream FILE"]
        case .cannotCapture:
            return ["a camera often has a second node for metadata; try the other /dev/videoN. " + doctorHint]
        case .permissionDenied:
            return isCamera ? [groupHint] : []
        case .busy:
            return ["close the other program using it (fuser -v \(name) names it), then try again"]
        case .noSupportedFormat:
            return ["read it through ffmpeg instead: ffmpeg -f v4l2 -i \(name) -f yuv4mpegpipe -pix_fmt gray - "
                    + "| qrseal scan --stream -"]
        case .disconnected:
            return ["what was read before is in the inbox; plug the camera back in and scan again"]
        case .noFrames:
            return ["is the lens covered by a privacy shutter, or is another program holding the camera?"]
        case .deviceFailed, .badFrame:
            return [doctorHint]
        case .emptyStream, .notAStream:
            return ["make one with ffmpeg: ffmpeg -f v4l2 -i /dev/video0 -f yuv4mpegpipe - | qrseal scan --stream -"]
        case .unsupportedColorSpace:
            return [ffmpegHint]
        case .tooLarge:
            return ["pass --max-pixels N to allow larger frames"]
        case .badFrameHeader, .truncatedFrame:
            return ["the stream was cut short or damaged; the frames before it were read and what they held was kept"]
        case .badHeader, .readFailed, .stopped:
            return []
        }
    }
}
