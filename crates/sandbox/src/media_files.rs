//! Placeholder media for sandbox renders: real, playable files that say plainly they are sandbox
//! renders. Images and boards are PNGs written here (colour from the prompt, "SANDBOX RENDER" drawn with
//! a built-in 5x7 bitmap font, at the requested aspect ratio); audio is a 16-bit PCM WAV tone of the
//! requested length; video and lip-sync are small committed H.264 MP4 fixtures (see `assets/README.md`).
use flate2::write::ZlibEncoder;
use flate2::{Compression, Crc};
use sha2::{Digest, Sha256};
use std::io::Write;

/// The long side of a rendered image, in pixels: big enough to look like an image, small enough to keep
/// the SQLite file light.
pub const IMAGE_LONG_SIDE: u32 = 512;

/// Sample rate of rendered audio: a tone needs no more, and it keeps a two-minute track under 4 MB.
pub const AUDIO_SAMPLE_RATE: u32 = 16_000;

/// 2 s, 320x180, H.264 baseline, no audio track.
pub const VIDEO_LANDSCAPE_MP4: &[u8] = include_bytes!("../assets/sandbox-render-landscape.mp4");
/// 2 s, 180x320, H.264 baseline, no audio track.
pub const VIDEO_PORTRAIT_MP4: &[u8] = include_bytes!("../assets/sandbox-render-portrait.mp4");

/// A file ready to be stored and served.
#[derive(Debug, Clone)]
pub struct RenderedFile {
    pub mime: &'static str,
    pub ext: &'static str,
    pub bytes: Vec<u8>,
}

/// `(width, height)` for an aspect ratio such as `16:9`, with `long` pixels on the long side. Anything
/// unparsable is square.
pub fn aspect_dims(aspect: Option<&str>, long: u32) -> (u32, u32) {
    let parsed = aspect.and_then(|a| {
        let (w, h) = a.split_once(':')?;
        let (w, h): (f64, f64) = (w.trim().parse().ok()?, h.trim().parse().ok()?);
        (w > 0.0 && h > 0.0).then_some((w, h))
    });
    let (w, h) = parsed.unwrap_or((1.0, 1.0));
    let short = |ratio: f64| ((long as f64 * ratio).round() as u32).max(8);
    if w >= h {
        (long, short(h / w))
    } else {
        (short(w / h), long)
    }
}

/// True when the aspect ratio is taller than wide (picks the portrait video fixture).
pub fn is_portrait(aspect: Option<&str>) -> bool {
    let (w, h) = aspect_dims(aspect, 100);
    h > w
}

/// A placeholder image: a vertical gradient in a colour taken from `seed` (the prompt), with
/// "SANDBOX RENDER" in large letters and `caption` lines below it.
pub fn image_png(width: u32, height: u32, seed: &str, caption: &[String]) -> RenderedFile {
    let digest = Sha256::digest(seed.as_bytes());
    let base = [digest[0], digest[1], digest[2]];
    let mut canvas = Canvas::new(width, height);
    for y in 0..height {
        // Darken towards the bottom so the picture reads as an image, not a flat swatch.
        let f = 1.0 - 0.45 * (y as f64 / height.max(1) as f64);
        let row = [
            (base[0] as f64 * f) as u8,
            (base[1] as f64 * f) as u8,
            (base[2] as f64 * f) as u8,
        ];
        for x in 0..width {
            canvas.set(x, y, row);
        }
    }
    // A frame, so the image edges are visible on any background.
    let frame = [255, 255, 255];
    for x in 0..width {
        for t in 0..3 {
            canvas.set(x, t, frame);
            canvas.set(x, height.saturating_sub(1 + t), frame);
        }
    }
    for y in 0..height {
        for t in 0..3 {
            canvas.set(t, y, frame);
            canvas.set(width.saturating_sub(1 + t), y, frame);
        }
    }
    // Text in white or black, whichever contrasts with the colour.
    let luma = 0.299 * base[0] as f64 + 0.587 * base[1] as f64 + 0.114 * base[2] as f64;
    let (ink, shadow) = if luma > 150.0 {
        ([0, 0, 0], [255, 255, 255])
    } else {
        ([255, 255, 255], [0, 0, 0])
    };
    let title = "SANDBOX RENDER";
    let title_scale = (width * 3 / 4 / text_width(title, 1)).max(1);
    let small_scale = (title_scale / 2).max(1);
    let line_h = |scale: u32| 9 * scale;
    let total = line_h(title_scale) + caption.len() as u32 * line_h(small_scale);
    let mut y = height.saturating_sub(total) / 2;
    canvas.text_centered(title, y, title_scale, ink, shadow);
    y += line_h(title_scale);
    for line in caption {
        let line = fit(line, width, small_scale);
        canvas.text_centered(&line, y, small_scale, ink, shadow);
        y += line_h(small_scale);
    }
    RenderedFile {
        mime: "image/png",
        ext: "png",
        bytes: canvas.png(),
    }
}

/// A mono 16-bit PCM WAV: a soft tone (pitch from `seed`) of `seconds`, faded in and out so it does not
/// click.
pub fn tone_wav(seconds: f64, seed: &str) -> RenderedFile {
    let digest = Sha256::digest(seed.as_bytes());
    let freq = 220.0 + (u16::from_be_bytes([digest[0], digest[1]]) % 440) as f64;
    let samples = ((seconds.max(0.1)) * AUDIO_SAMPLE_RATE as f64).round() as u32;
    let fade = (AUDIO_SAMPLE_RATE / 20).min(samples / 2).max(1);
    let data_len = samples * 2;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVE");
    out.extend_from_slice(b"fmt ");
    out.extend_from_slice(&16u32.to_le_bytes()); // fmt chunk size
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&AUDIO_SAMPLE_RATE.to_le_bytes());
    out.extend_from_slice(&(AUDIO_SAMPLE_RATE * 2).to_le_bytes()); // byte rate
    out.extend_from_slice(&2u16.to_le_bytes()); // block align
    out.extend_from_slice(&16u16.to_le_bytes()); // bits per sample
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for i in 0..samples {
        let t = i as f64 / AUDIO_SAMPLE_RATE as f64;
        let envelope = (i.min(samples - 1 - i) as f64 / fade as f64).min(1.0);
        let v = (t * freq * std::f64::consts::TAU).sin() * 0.3 * envelope;
        out.extend_from_slice(&((v * i16::MAX as f64) as i16).to_le_bytes());
    }
    RenderedFile {
        mime: "audio/wav",
        ext: "wav",
        bytes: out,
    }
}

/// The video fixture matching the aspect ratio (portrait for tall ratios, landscape otherwise).
pub fn video_mp4(aspect: Option<&str>) -> RenderedFile {
    let bytes = if is_portrait(aspect) {
        VIDEO_PORTRAIT_MP4
    } else {
        VIDEO_LANDSCAPE_MP4
    };
    RenderedFile {
        mime: "video/mp4",
        ext: "mp4",
        bytes: bytes.to_vec(),
    }
}

/// Cuts `line` so it fits `width` at `scale`, with an ellipsis-like `..` when cut.
fn fit(line: &str, width: u32, scale: u32) -> String {
    let max_chars = ((width.saturating_sub(16)) / (6 * scale)).max(3) as usize;
    let upper: String = line.to_uppercase().chars().collect();
    if upper.chars().count() <= max_chars {
        upper
    } else {
        let cut: String = upper.chars().take(max_chars - 2).collect();
        format!("{cut}..")
    }
}

fn text_width(text: &str, scale: u32) -> u32 {
    (text.chars().count() as u32 * 6).saturating_sub(1) * scale
}

/// An RGB pixel buffer.
struct Canvas {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl Canvas {
    fn new(width: u32, height: u32) -> Self {
        Canvas {
            width,
            height,
            pixels: vec![0; (width * height * 3) as usize],
        }
    }

    fn set(&mut self, x: u32, y: u32, rgb: [u8; 3]) {
        if x < self.width && y < self.height {
            let i = ((y * self.width + x) * 3) as usize;
            self.pixels[i..i + 3].copy_from_slice(&rgb);
        }
    }

    fn text_centered(&mut self, text: &str, y: u32, scale: u32, ink: [u8; 3], shadow: [u8; 3]) {
        let x = self.width.saturating_sub(text_width(text, scale)) / 2;
        let offset = (scale / 2).max(1);
        self.text(text, x + offset, y + offset, scale, shadow);
        self.text(text, x, y, scale, ink);
    }

    fn text(&mut self, text: &str, x0: u32, y0: u32, scale: u32, rgb: [u8; 3]) {
        for (i, ch) in text.chars().enumerate() {
            let rows = glyph(ch);
            let gx = x0 + i as u32 * 6 * scale;
            for (row, bits) in rows.iter().enumerate() {
                for col in 0..5u32 {
                    if bits & (0b10000 >> col) != 0 {
                        for dy in 0..scale {
                            for dx in 0..scale {
                                self.set(gx + col * scale + dx, y0 + row as u32 * scale + dy, rgb);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Encodes as an 8-bit RGB PNG (filter 0 on every row, zlib-compressed IDAT).
    fn png(&self) -> Vec<u8> {
        let mut raw = Vec::with_capacity(((self.width * 3 + 1) * self.height) as usize);
        for y in 0..self.height {
            raw.push(0);
            let start = (y * self.width * 3) as usize;
            raw.extend_from_slice(&self.pixels[start..start + (self.width * 3) as usize]);
        }
        let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
        // Writing to a Vec cannot fail.
        let _ = z.write_all(&raw);
        let idat = z.finish().unwrap_or_default();

        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut ihdr = Vec::with_capacity(13);
        ihdr.extend_from_slice(&self.width.to_be_bytes());
        ihdr.extend_from_slice(&self.height.to_be_bytes());
        ihdr.extend_from_slice(&[8, 2, 0, 0, 0]); // 8-bit, RGB, deflate, filter 0, no interlace
        chunk(&mut out, b"IHDR", &ihdr);
        chunk(
            &mut out,
            b"tEXt",
            b"Software\0Content Desk sandbox render (placeholder, not a real generation)",
        );
        chunk(&mut out, b"IDAT", &idat);
        chunk(&mut out, b"IEND", &[]);
        out
    }
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = Crc::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_be_bytes());
}

/// 5x7 glyphs, one byte per row, the five low bits left to right. Letters are upper case; anything
/// without a glyph is drawn as `?`.
fn glyph(ch: char) -> [u8; 7] {
    match ch.to_ascii_uppercase() {
        'A' => [0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11],
        'B' => [0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E],
        'C' => [0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E],
        'D' => [0x1E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1E],
        'E' => [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F],
        'F' => [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10],
        'G' => [0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F],
        'H' => [0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11],
        'I' => [0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E],
        'J' => [0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C],
        'K' => [0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11],
        'L' => [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F],
        'M' => [0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11],
        'N' => [0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11],
        'O' => [0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E],
        'P' => [0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10],
        'Q' => [0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D],
        'R' => [0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11],
        'S' => [0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E],
        'T' => [0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04],
        'U' => [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E],
        'V' => [0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04],
        'W' => [0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A],
        'X' => [0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11],
        'Y' => [0x11, 0x11, 0x11, 0x0A, 0x04, 0x04, 0x04],
        'Z' => [0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F],
        '0' => [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E],
        '1' => [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        '2' => [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F],
        '3' => [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        '4' => [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02],
        '5' => [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        '6' => [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E],
        '7' => [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        '8' => [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E],
        '9' => [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        ' ' => [0; 7],
        '-' => [0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00],
        ':' => [0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00],
        '.' => [0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C],
        ',' => [0x00, 0x00, 0x00, 0x00, 0x0C, 0x04, 0x08],
        '#' => [0x0A, 0x0A, 0x1F, 0x0A, 0x1F, 0x0A, 0x0A],
        '/' => [0x01, 0x01, 0x02, 0x04, 0x08, 0x10, 0x10],
        '\'' => [0x04, 0x04, 0x08, 0x00, 0x00, 0x00, 0x00],
        '!' => [0x04, 0x04, 0x04, 0x04, 0x04, 0x00, 0x04],
        _ => [0x0E, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aspect_ratios_keep_the_long_side() {
        assert_eq!(aspect_dims(Some("16:9"), 512), (512, 288));
        assert_eq!(aspect_dims(Some("9:16"), 512), (288, 512));
        assert_eq!(aspect_dims(Some("1:1"), 512), (512, 512));
        assert_eq!(aspect_dims(Some("nonsense"), 512), (512, 512));
        assert!(is_portrait(Some("3:4")) && !is_portrait(Some("4:3")));
    }

    #[test]
    fn png_and_wav_have_their_headers() {
        let png = image_png(64, 32, "x", &["model".into()]);
        assert!(png.bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert_eq!(&png.bytes[12..16], b"IHDR");
        let wav = tone_wav(0.5, "x");
        assert!(wav.bytes.starts_with(b"RIFF") && &wav.bytes[8..12] == b"WAVE");
        assert_eq!(wav.bytes.len(), 44 + 8000 * 2);
    }
}
