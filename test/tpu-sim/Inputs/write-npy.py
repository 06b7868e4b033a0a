# Writes a .npy file with the given header fields and zero data, without
# NumPy: write-npy.py OUT DESCR FORTRAN ROWS COLS
# (the data size follows the shape and the descr's item size).
import struct
import sys

out, descr, fortran, rows, cols = sys.argv[1:6]
rows, cols = int(rows), int(cols)
header = "{'descr': '%s', 'fortran_order': %s, 'shape': (%d, %d), }" % (
    descr, fortran, rows, cols)
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
itemsize = int(descr[2:])
with open(out, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
    f.write(header.encode("latin1"))
    f.write(b"\0" * (rows * cols * itemsize))
