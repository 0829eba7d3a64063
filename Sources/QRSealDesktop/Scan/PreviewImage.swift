import QRSealKit

/// What the preview shows of a frame: its picture at the size the preview draws it
/// (`Frame.picture(fitting:)`), made on a worker so that the main loop only hands the pixels
/// to the toolkit. Scaling a 1280×720 picture and converting it from RGB there at every frame
/// took a large part of each 33 ms (bench/desktop.py).
struct PreviewImage: Sendable {
    let picture: FramePicture
    /// The size of the frame it shows, which the outlines' corners are measured in.
    let frameWidth: Int, frameHeight: Int

    init(_ frame: Frame, fitting box: (width: Int, height: Int)?) {
        picture = frame.picture(fitting: box)
        frameWidth = frame.image.width
        frameHeight = frame.image.height
    }
}
