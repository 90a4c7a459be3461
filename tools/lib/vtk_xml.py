"""Reading fhnsim's VTK XML output without the vtk Python module, for the plotting tools.

The XML header is parsed with ElementTree and the arrays are decoded from the appended raw
binary block (zlib/lzma compressed or uncompressed, UInt32 or UInt64 block headers) or from
inline ASCII. A compressed array is [number of blocks, block size, size of the last block
(0: a full block), compressed size of each block] in the header type, then the blocks.
"""
import lzma
import xml.etree.ElementTree as ET
import zlib
from collections import namedtuple
from pathlib import Path

try:
    import numpy as np
except ImportError:  # each tool says what is missing after --help had its chance
    np = None

VTK_TYPES = {
    "Int8": "i1", "UInt8": "u1", "Int16": "i2", "UInt16": "u2", "Int32": "i4", "UInt32": "u4",
    "Int64": "i8", "UInt64": "u8", "Float32": "f4", "Float64": "f8",
}
DECOMPRESSORS = {"vtkZLibDataCompressor": zlib.decompress, "vtkLZMADataCompressor": lzma.decompress}
# What reading a file can raise besides VtiError: a tool catches these and names the file.
READ_ERRORS = (OSError, ET.ParseError, zlib.error, lzma.LZMAError)


class VtiError(Exception):
    """The file is not a VTK XML file these tools can decode."""


def split_appended(data):
    """(XML header, start of the appended raw bytes or None) of a VTK XML file's bytes."""
    tag = data.find(b"<AppendedData")
    if tag < 0:
        return data, None
    opening_end = data.index(b">", tag)
    if b'encoding="raw"' not in data[tag:opening_end]:
        raise VtiError("only raw appended data is supported (the writer used base64 encoding)")
    # The binary block starts right after the first "_" that follows the opening tag.
    underscore = data.index(b"_", opening_end)
    return data[:tag] + b"</VTKFile>", underscore + 1


class VtkXmlFile:
    """The header of a VTK XML file and a decoder for its data arrays."""

    def __init__(self, path):
        data = Path(path).read_bytes()
        header, self.appended_start = split_appended(data)
        self.data = data
        self.root = ET.fromstring(header)
        if self.root.tag != "VTKFile":
            raise VtiError("not a VTK XML file")
        endian = "<" if self.root.get("byte_order", "LittleEndian") == "LittleEndian" else ">"
        self.endian = endian
        # Block headers are UInt32 unless declared otherwise (files of version 0.1 have no attribute).
        header_type = "u8" if self.root.get("header_type") == "UInt64" else "u4"
        self.header_dtype = np.dtype(endian + header_type)
        compressor = self.root.get("compressor")
        if compressor is not None and compressor not in DECOMPRESSORS:
            raise VtiError(f"unsupported compressor {compressor}")
        self.decompress = DECOMPRESSORS.get(compressor)

    def array(self, element):
        """The values of a <DataArray> element as a flat numpy array."""
        value_type = VTK_TYPES[element.get("type")]
        fmt = element.get("format")
        if fmt == "ascii":
            return np.array(element.text.split(), dtype=value_type)
        if fmt != "appended" or self.appended_start is None:
            raise VtiError(f"unsupported DataArray format '{fmt}' (only appended raw and ascii)")
        raw = self._appended_bytes(self.appended_start + int(element.get("offset")))
        return np.frombuffer(raw, dtype=np.dtype(self.endian + value_type))

    def _appended_bytes(self, position):
        """The decoded bytes of the array that starts at position in the file."""
        size = self.header_dtype.itemsize

        def header_values(count):
            nonlocal position
            values = np.frombuffer(self.data, dtype=self.header_dtype, count=count, offset=position)
            position += count * size
            return [int(value) for value in values]

        if self.decompress is None:  # [nbytes] data
            (nbytes,) = header_values(1)
            return self.data[position:position + nbytes]
        # [nblocks, block size, last block size (0: a full block), compressed size of each block]
        nblocks, _, _ = header_values(3)
        compressed_sizes = header_values(nblocks)
        blocks = []
        for compressed in compressed_sizes:
            blocks.append(self.decompress(self.data[position:position + compressed]))
            position += compressed
        return b"".join(blocks)


def read_collection(pvd):
    """[(t, frame path)] of a .pvd collection, in file order."""
    root = ET.parse(pvd).getroot()
    frames = [(float(d.get("timestep")), Path(pvd).parent / d.get("file"))
              for d in root.iter("DataSet")]
    if not frames:
        raise VtiError("the collection lists no frames")
    return frames


# Point arrays of an ImageData file as [ny, nx] arrays (row j = y index), with where the image
# lies: point (i, j) is at origin + (i, j) * spacing. For a plane of a 3-D image (a box's frame),
# the arrays are [n_b, n_a] over its two axes `axes` (a < b: (0, 1), (0, 2) or (1, 2)), origin
# and spacing of those two axes then the cut axis, and `at` the cut plane's coordinate.
Image = namedtuple("Image", "arrays origin spacing axes at", defaults=((0, 1), None))


def read_image(path, names, cut=None):
    """The point arrays `names` of a 2-D ImageData file (one slice) as an Image; of a 3-D one
    (a box), the plane nearest cut = (axis, coordinate) (default: the middle plane along z)."""
    vti = VtkXmlFile(path)
    if vti.root.get("type") != "ImageData":
        raise VtiError(f"expected an ImageData file, got type '{vti.root.get('type')}'")
    image = vti.root.find("ImageData")
    extent = [int(value) for value in image.get("WholeExtent").split()]
    n = [extent[1] - extent[0] + 1, extent[3] - extent[2] + 1, extent[5] - extent[4] + 1]
    origin = [float(value) for value in image.get("Origin").split()]
    spacing = [float(value) for value in image.get("Spacing").split()]
    if n[2] == 1 and cut is not None:
        raise VtiError("a slice (--slice) is for 3-D images (boxes); this one is 2-D")
    point_data = image.find("Piece/PointData")
    arrays = {}
    axis, index = 2, 0
    if n[2] > 1:
        axis, at = cut if cut is not None else (2, origin[2] + spacing[2] * (n[2] - 1) / 2)
        index = int(round((at - origin[axis]) / spacing[axis]))
        if not 0 <= index < n[axis]:
            raise VtiError(f"{'xyz'[axis]} = {at:g} is outside the image "
                           f"[{origin[axis]:g}, {origin[axis] + spacing[axis] * (n[axis] - 1):g}]")
    for name in names:
        element = point_data.find(f"DataArray[@Name='{name}']") if point_data is not None else None
        if element is None:
            raise VtiError(f"no point array '{name}'")
        values = vti.array(element)
        if values.size != n[0] * n[1] * n[2]:
            raise VtiError(f"array '{name}' has {values.size} values, expected "
                           f"{' x '.join(str(k) for k in n if k > 1)}")
        volume = values.reshape(n[2], n[1], n[0])  # [k, j, i]
        arrays[name] = (volume[index] if axis == 2 else
                        volume[:, index, :] if axis == 1 else volume[:, :, index])
    if n[2] == 1:
        return Image(arrays, origin, spacing)
    axes = tuple(a for a in range(3) if a != axis)
    return Image(arrays, [origin[axes[0]], origin[axes[1]], origin[axis]],
                 [spacing[axes[0]], spacing[axes[1]], spacing[axis]], axes,
                 origin[axis] + spacing[axis] * index)


def header_range(path, name):
    """(RangeMin, RangeMax) that the writer recorded for point array `name`, from the XML header
    alone (no decoding), or None where the header has no range."""
    with open(path, "rb") as file:
        head = b""
        while b"<AppendedData" not in head:
            chunk = file.read(1 << 16)
            if not chunk:
                break
            head += chunk
    tag = head.find(b"<AppendedData")
    header = head if tag < 0 else head[:tag] + b"</VTKFile>"
    element = ET.fromstring(header).find(f".//PointData/DataArray[@Name='{name}']")
    if element is None or element.get("RangeMin") is None or element.get("RangeMax") is None:
        return None
    return float(element.get("RangeMin")), float(element.get("RangeMax"))
