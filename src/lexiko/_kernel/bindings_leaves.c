/*
 * lexiko._kernel, bindings_leaves.c: the bindings of leave values: leave_table() (a
 * Python function's value of every sub-rack), leave_map() and leave_values() (the packed
 * leave map, leaves.c) and rack_leaves() (leaves valued by racks, for training).
 */
#include "bindings.h"

#include "leaves.h"

/* -- leave tables ------------------------------------------------------------------ */

/*
 * leave_table(counts, leaves) -> bytes: float(leaves(t)) for every sub-rack t of the rack
 * with counts[c] tiles of code c (64 bytes, [0] blanks), as doubles in the index order
 * generate() takes (mixed radix, the lowest code on the rack the least significant digit),
 * t in rack order (letters by code, then blanks). What lexiko.movegen does in Python,
 * without a Python tuple operation per sub-rack.
 */
PyObject *k_leave_table(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer counts;
    PyObject *fn, *result = NULL;
    if (!PyArg_ParseTuple(args, "y*O:leave_table", &counts, &fn))
        return NULL;
    const uint8_t *full = (const uint8_t *)counts.buf;
    int codes[64], nc = 0, digits[64], tiles = 0;
    uint64_t nleaves = 1;
    if (counts.len != 64) {
        PyErr_SetString(PyExc_ValueError, "counts needs 64 bytes");
        goto out;
    }
    for (int c = 0; c < 64; c++) {
        if (!full[c])
            continue;
        codes[nc] = c;
        digits[nc++] = 0;
        tiles += full[c];
        nleaves *= (uint64_t)full[c] + 1;
        if (nleaves > MAX_LEAVES) {
            PyErr_SetString(PyExc_ValueError, "rack too large");
            goto out;
        }
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(nleaves * sizeof(double)));
    if (!result)
        goto out;
    double *vals = (double *)PyBytes_AS_STRING(result);
    int first = nc && codes[0] == 0; /* the blanks: least significant digits, last in the tuple */
    int size = 0;
    for (uint64_t idx = 0; idx < nleaves; idx++) {
        PyObject *t = PyTuple_New(size);
        if (!t)
            goto fail;
        Py_ssize_t at = 0;
        for (int j = first; j < nc; j++)
            for (int k = 0; k < digits[j]; k++)
                PyTuple_SET_ITEM(t, at++, PyLong_FromLong(codes[j])); /* small ints: cached */
        for (int k = 0; first && k < digits[0]; k++)
            PyTuple_SET_ITEM(t, at++, PyLong_FromLong(0));
        PyObject *v = PyObject_CallOneArg(fn, t);
        Py_DECREF(t);
        if (!v)
            goto fail;
        if (PyFloat_CheckExact(v)) {
            vals[idx] = PyFloat_AS_DOUBLE(v);
            Py_DECREF(v);
        } else { /* float(v), as Python would */
            PyObject *f = PyObject_CallOneArg((PyObject *)&PyFloat_Type, v);
            Py_DECREF(v);
            if (!f)
                goto fail;
            vals[idx] = PyFloat_AsDouble(f);
            Py_DECREF(f);
        }
        for (int j = 0; j < nc; j++) { /* next index */
            if (digits[j] < full[codes[j]]) {
                digits[j]++;
                size++;
                break;
            }
            size -= digits[j];
            digits[j] = 0;
        }
    }
    goto out;
fail:
    Py_CLEAR(result);
out:
    PyBuffer_Release(&counts);
    return result;
}
/*
 * leave_map(keys, values, bits, offset, vowels, terms, balance) -> bytes: a packed leave
 * map: keys (uint64, as above, distinct) and their values (doubles), 2**bits slots (more
 * than the keys), the model: offset, vowels (64 bytes, 1 for a vowel's code), terms
 * (64 * (LM_K + 1) * 2 doubles: what k copies of code c add), balance (LM_B * LM_B
 * doubles, by vowels then consonants).
 */
PyObject *k_leave_map(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer keys, values, vowels, terms, balance;
    int bits;
    double offset;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "y*y*idy*y*y*:leave_map", &keys, &values, &bits, &offset, &vowels, &terms, &balance))
        return NULL;
    size_t n = (size_t)keys.len / sizeof(uint64_t);
    if (keys.len % (Py_ssize_t)sizeof(uint64_t) || (size_t)values.len != n * sizeof(double) || bits < 1 ||
        bits > 40 || n >= ((size_t)1 << bits) || vowels.len != 64 ||
        (size_t)terms.len != sizeof(((LeaveMapHead *)0)->terms) ||
        (size_t)balance.len != sizeof(((LeaveMapHead *)0)->balance)) {
        PyErr_SetString(PyExc_ValueError, "bad leave map arguments");
        goto out;
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)leave_map_bytes(bits));
    if (!result)
        goto out;
    if (leave_map_write(PyBytes_AS_STRING(result), bits, offset, (const uint8_t *)vowels.buf, terms.buf, balance.buf,
                        (const uint64_t *)keys.buf, (const double *)values.buf, n) < 0) {
        Py_CLEAR(result);
        PyErr_SetString(PyExc_ValueError, "leave key 0");
    }
out:
    PyBuffer_Release(&keys);
    PyBuffer_Release(&values);
    PyBuffer_Release(&vowels);
    PyBuffer_Release(&terms);
    PyBuffer_Release(&balance);
    return result;
}


/* leave_values(counts, map) -> bytes: what leave_table(counts, table) gives for the
 * LeaveTable packed in map, computed here. */
PyObject *k_leave_values(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer counts, map;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "y*y*:leave_values", &counts, &map))
        return NULL;
    const LeaveMapHead *h = leave_map_of(&map);
    if (!h)
        goto out;
    if (counts.len != 64) {
        PyErr_SetString(PyExc_ValueError, "counts needs 64 bytes");
        goto out;
    }
    const uint8_t *full = (const uint8_t *)counts.buf;
    uint64_t nleaves = 1;
    for (int c = 0; c < 64; c++) {
        nleaves *= (uint64_t)full[c] + 1;
        if (nleaves > MAX_LEAVES) {
            PyErr_SetString(PyExc_ValueError, "rack too large");
            goto out;
        }
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(nleaves * sizeof(double)));
    if (result)
        leave_map_fill(h, full, (double *)PyBytes_AS_STRING(result), nleaves);
out:
    PyBuffer_Release(&counts);
    PyBuffer_Release(&map);
    return result;
}

PyObject *k_rack_leaves(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer racks, sums, counts, dist;
    int size;
    PyObject *result = NULL;
    RackLeaveSlot *slots = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*y*i:rack_leaves", &racks, &sums, &counts, &dist, &size))
        return NULL;
    size_t n = size > 0 ? (size_t)racks.len / (size_t)size : 0;
    if (size < 2 || size > LM_MAXLEN || (size_t)racks.len != n * (size_t)size || dist.len != 64 ||
        (size_t)sums.len != n * sizeof(double) || (size_t)counts.len != n * sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "bad rack_leaves arguments");
        goto out;
    }
    RackLeaves rl;
    int err = rack_leaves_count(&rl, (const uint8_t *)racks.buf, n, size, (const double *)sums.buf,
                                (const double *)counts.buf, (const uint8_t *)dist.buf);
    slots = rl.slots;
    int bits = rl.bits;
    size_t used = rl.used;
    if (err == -2) {
        PyErr_SetString(PyExc_ValueError, "a tile code past 63");
        goto out;
    }
    if (err < 0)
        goto nomem;
    {
        PyObject *k = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(used * sizeof(uint64_t)));
        PyObject *a = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(used * sizeof(double)));
        PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(used * sizeof(double)));
        PyObject *s = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(used * sizeof(double)));
        if (k && a && b && s) {
            uint64_t *kp = (uint64_t *)PyBytes_AS_STRING(k);
            double *ap = (double *)PyBytes_AS_STRING(a), *bp = (double *)PyBytes_AS_STRING(b),
                   *sp = (double *)PyBytes_AS_STRING(s);
            size_t o = 0;
            for (size_t i = 0; i < ((size_t)1 << bits); i++)
                if (slots[i].key) {
                    kp[o] = slots[i].key;
                    ap[o] = slots[i].weighted;
                    bp[o] = slots[i].weight;
                    sp[o++] = slots[i].seen;
                }
            result = PyTuple_Pack(4, k, a, b, s);
        }
        Py_XDECREF(k);
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_XDECREF(s);
    }
    goto out;
nomem:
    PyErr_NoMemory();
out:
    free(slots);
    PyBuffer_Release(&racks);
    PyBuffer_Release(&sums);
    PyBuffer_Release(&counts);
    PyBuffer_Release(&dist);
    return result;
}

