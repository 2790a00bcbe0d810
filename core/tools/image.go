package tools

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
)

// Limits on an image sent to a model: its sides, and the size of its base64
// form (below Anthropic's 5MB).
const (
	maxImageSide      = 2000
	maxImageBase64Len = 4.5 * 1024 * 1024
)

// maxDecodePixels bounds the images decoded for scaling (about 400MB of
// pixels), so a small file claiming a huge size cannot exhaust memory.
const maxDecodePixels = 100_000_000

// sniffImage returns the MIME type of data when it is a PNG, JPEG, GIF or
// WebP image, judged by its first bytes rather than the file's name.
func sniffImage(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
		return "image/jpeg"
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return "image/gif"
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return "image/webp"
	}
	return ""
}

// SniffImage is the MIME type of data when it is an image a model can
// take (PNG, JPEG, GIF or WebP), judged by its first bytes; else "".
func SniffImage(data []byte) string { return sniffImage(data) }

// fittedImage is an image ready to send: its bytes and type, its size, and
// the size it had before it was scaled down.
type fittedImage struct {
	data         []byte
	mime         string
	w, h         int
	origW, origH int
	resized      bool
}

// fitImage returns the image unchanged when it is within the limits, and
// otherwise scaled down and re-encoded as whichever of PNG or JPEG (at falling
// qualities) first fits, shrinking further by quarters until one does. It
// reports false when the image cannot be decoded or made to fit. WebP images
// within the limits pass through; larger ones cannot be re-encoded here.
func fitImage(data []byte, mime string) (fittedImage, bool) {
	w, h, ok := imageSize(data, mime)
	if !ok {
		return fittedImage{}, false
	}
	if w <= maxImageSide && h <= maxImageSide && base64Len(len(data)) < maxImageBase64Len {
		return fittedImage{data: data, mime: mime, w: w, h: h, origW: w, origH: h}, true
	}
	if mime == "image/webp" || w*h > maxDecodePixels {
		return fittedImage{}, false
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return fittedImage{}, false
	}
	rgba := toRGBA(src)
	tw, th := w, h
	if tw > maxImageSide {
		th, tw = max(1, (th*maxImageSide+tw/2)/tw), maxImageSide
	}
	if th > maxImageSide {
		tw, th = max(1, (tw*maxImageSide+th/2)/th), maxImageSide
	}
	for {
		scaled := scaleDown(rgba, tw, th)
		for _, enc := range encodings {
			var buf bytes.Buffer
			if err := enc.encode(&buf, scaled); err != nil {
				continue
			}
			if base64Len(buf.Len()) < maxImageBase64Len {
				return fittedImage{data: buf.Bytes(), mime: enc.mime, w: tw, h: th, origW: w, origH: h, resized: true}, true
			}
		}
		if tw == 1 && th == 1 {
			return fittedImage{}, false
		}
		tw, th = max(1, tw*3/4), max(1, th*3/4)
	}
}

// encodings are the formats tried when re-encoding, smallest-loss first.
var encodings = []struct {
	mime   string
	encode func(*bytes.Buffer, image.Image) error
}{
	{"image/png", func(b *bytes.Buffer, m image.Image) error { return png.Encode(b, m) }},
	{"image/jpeg", jpegAt(80)},
	{"image/jpeg", jpegAt(85)},
	{"image/jpeg", jpegAt(70)},
	{"image/jpeg", jpegAt(55)},
	{"image/jpeg", jpegAt(40)},
}

func jpegAt(q int) func(*bytes.Buffer, image.Image) error {
	return func(b *bytes.Buffer, m image.Image) error { return jpeg.Encode(b, m, &jpeg.Options{Quality: q}) }
}

func base64Len(n int) int { return (n + 2) / 3 * 4 }

// imageSize reads an image's width and height from its header.
func imageSize(data []byte, mime string) (int, int, bool) {
	var cfg image.Config
	var err error
	switch mime {
	case "image/png":
		cfg, err = png.DecodeConfig(bytes.NewReader(data))
	case "image/jpeg":
		cfg, err = jpeg.DecodeConfig(bytes.NewReader(data))
	case "image/gif":
		cfg, err = gif.DecodeConfig(bytes.NewReader(data))
	case "image/webp":
		return webpSize(data)
	default:
		return 0, 0, false
	}
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return 0, 0, false
	}
	return cfg.Width, cfg.Height, true
}

// webpSize reads the canvas size of a WebP file from its first chunk: VP8
// (lossy), VP8L (lossless) or VP8X (extended).
func webpSize(data []byte) (int, int, bool) {
	if len(data) < 30 {
		return 0, 0, false
	}
	switch string(data[12:16]) {
	case "VP8 ":
		if data[23] != 0x9d || data[24] != 0x01 || data[25] != 0x2a {
			return 0, 0, false
		}
		w := int(binary.LittleEndian.Uint16(data[26:28]) & 0x3fff)
		h := int(binary.LittleEndian.Uint16(data[28:30]) & 0x3fff)
		return w, h, w > 0 && h > 0
	case "VP8L":
		if data[20] != 0x2f {
			return 0, 0, false
		}
		bits := binary.LittleEndian.Uint32(data[21:25])
		return int(bits&0x3fff) + 1, int(bits>>14&0x3fff) + 1, true
	case "VP8X":
		w := int(data[24]) | int(data[25])<<8 | int(data[26])<<16
		h := int(data[27]) | int(data[28])<<8 | int(data[29])<<16
		return w + 1, h + 1, true
	}
	return 0, 0, false
}

// toRGBA converts an image to premultiplied RGBA, which averages correctly
// across transparent edges.
func toRGBA(src image.Image) *image.RGBA {
	if m, ok := src.(*image.RGBA); ok && m.Rect.Min == (image.Point{}) {
		return m
	}
	b := src.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(dst, dst.Rect, src, b.Min, draw.Src)
	return dst
}

// scaleDown shrinks src to w by h, each output pixel the average of the
// source pixels it covers (a box filter, good for reduction).
func scaleDown(src *image.RGBA, w, h int) *image.RGBA {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		y0, y1 := y*sh/h, max((y+1)*sh/h, y*sh/h+1)
		for x := range w {
			x0, x1 := x*sw/w, max((x+1)*sw/w, x*sw/w+1)
			var r, g, b, a, n uint64
			for sy := y0; sy < y1; sy++ {
				row := src.Pix[sy*src.Stride+x0*4 : sy*src.Stride+x1*4]
				for i := 0; i < len(row); i += 4 {
					r += uint64(row[i])
					g += uint64(row[i+1])
					b += uint64(row[i+2])
					a += uint64(row[i+3])
					n++
				}
			}
			o := y*dst.Stride + x*4
			dst.Pix[o], dst.Pix[o+1], dst.Pix[o+2], dst.Pix[o+3] = uint8(r/n), uint8(g/n), uint8(b/n), uint8(a/n)
		}
	}
	return dst
}
