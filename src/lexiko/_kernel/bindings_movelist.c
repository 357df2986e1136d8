/*
 * lexiko._kernel, bindings_movelist.c: the moves generate() returns. setup() names the
 * classes (Place, Candidate, Exchange, Pass); a MoveList holds the moves packed, best
 * first, and makes each Candidate the first time it is read (then keeps it), so a caller
 * who reads three moves of 40,000 pays for three objects. It is equal to the list of the
 * same candidates; slicing, copy() and pickling give lists. It has a list's methods: the
 * first that changes it (append, sort, del ...) makes every Candidate into a list it
 * holds from then on, and every method works on that list.
 */
#include "bindings.h"

#include <structmember.h>

/* -- the classes, written slot by slot ----------------------------------------------- */

typedef struct {
    PyTypeObject *type;
    Py_ssize_t off[4];
} SlotType;

static SlotType place_t, cand_t;
static PyObject *exchange_cls, *pass_cls;

static int slot_setup(SlotType *st, PyObject *type, const char *const names[4])
{
    if (!PyType_Check(type)) {
        PyErr_SetString(PyExc_TypeError, "setup() needs classes");
        return -1;
    }
    for (int k = 0; k < 4; k++) {
        PyObject *d = PyObject_GetAttrString(type, names[k]);
        if (!d)
            return -1;
        if (!Py_IS_TYPE(d, &PyMemberDescr_Type)) {
            Py_DECREF(d);
            PyErr_Format(PyExc_TypeError, "%s.%s is not a slot", ((PyTypeObject *)type)->tp_name, names[k]);
            return -1;
        }
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type != T_OBJECT_EX || (m->flags & READONLY)) {
            Py_DECREF(d);
            PyErr_Format(PyExc_TypeError, "%s.%s is not a writable object slot", ((PyTypeObject *)type)->tp_name,
                         names[k]);
            return -1;
        }
        st->off[k] = m->offset;
        Py_DECREF(d);
    }
    Py_XDECREF(st->type);
    Py_INCREF(type);
    st->type = (PyTypeObject *)type;
    return 0;
}

/* A new instance with its four slots set (references stolen; all non-NULL). */
static PyObject *slot_new(SlotType *st, PyObject *a, PyObject *b, PyObject *c, PyObject *d)
{
    PyObject *o = NULL;
    if (a && b && c && d)
        o = st->type->tp_alloc(st->type, 0);
    if (!o) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_XDECREF(c);
        Py_XDECREF(d);
        return NULL;
    }
    *(PyObject **)((char *)o + st->off[0]) = a;
    *(PyObject **)((char *)o + st->off[1]) = b;
    *(PyObject **)((char *)o + st->off[2]) = c;
    *(PyObject **)((char *)o + st->off[3]) = d;
    /* Immutable values holding only immutable values: no cycle can go through them,
     * so the cyclic collector need not track them (as CPython untracks such tuples). */
    if (PyObject_GC_IsTracked(o))
        PyObject_GC_UnTrack(o);
    return o;
}

PyObject *k_setup(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *place, *cand, *exchange, *pass;
    static const char *const pn[4] = {"row", "col", "down", "tiles"};
    static const char *const cn[4] = {"move", "score", "equity", "leave"};
    if (!PyArg_ParseTuple(args, "OOOO:setup", &place, &cand, &exchange, &pass))
        return NULL;
    if (!PyCallable_Check(exchange) || !PyCallable_Check(pass)) {
        PyErr_SetString(PyExc_TypeError, "setup() needs classes");
        return NULL;
    }
    if (slot_setup(&place_t, place, pn) < 0 || slot_setup(&cand_t, cand, cn) < 0)
        return NULL;
    Py_INCREF(exchange);
    Py_XSETREF(exchange_cls, exchange);
    Py_INCREF(pass);
    Py_XSETREF(pass_cls, pass);
    Py_RETURN_NONE;
}

/* -- the sequence ---------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;
    Move *moves;      /* best first; row ML_EXCHANGE / ML_PASS for the other moves */
    PyObject **items; /* the Candidates made so far (NULL: not yet), n of them; NULL until the first */
    PyObject **leaves; /* leave tuples made so far, by leave index; NULL when not kept */
    uint32_t nleaves;
    uint32_t radix[64];
    uint8_t full[64];
    PyObject *list; /* NULL, or the list the MoveList became when first changed */
} MoveList;

static PyTypeObject MoveListType;

/* The tiles of sub-rack idx (kept: 1) or of the rest of the rack (kept: 0), letters by
 * code then blanks, into buf; how many. */
static int sub_rack(const uint8_t *full, const uint32_t *radix, uint32_t idx, int kept, uint8_t *buf)
{
    int n = 0;
    for (int i = 1; i <= 64; i++) {
        int c = i & 63; /* 1..63, then 0 (blanks last) */
        if (!full[c])
            continue;
        int k = (int)((idx / radix[c]) % (uint32_t)(full[c] + 1));
        if (!kept)
            k = full[c] - k;
        while (k-- > 0 && n < 64)
            buf[n++] = (uint8_t)c;
    }
    return n;
}

static PyObject *byte_tuple(const uint8_t *buf, int n)
{
    PyObject *t = PyTuple_New(n);
    if (!t)
        return NULL;
    for (int i = 0; i < n; i++)
        PyTuple_SET_ITEM(t, i, PyLong_FromLong(buf[i])); /* small ints: cached */
    PyObject_GC_UnTrack(t);
    return t;
}

static PyObject *leave_of(MoveList *ml, uint32_t idx)
{
    if (idx >= ml->nleaves)
        idx = 0;
    if (ml->leaves && ml->leaves[idx]) {
        Py_INCREF(ml->leaves[idx]);
        return ml->leaves[idx];
    }
    uint8_t buf[64];
    PyObject *t = byte_tuple(buf, sub_rack(ml->full, ml->radix, idx, 1, buf));
    if (t && ml->leaves) {
        Py_INCREF(t);
        ml->leaves[idx] = t;
    }
    return t;
}

static PyObject *move_object(MoveList *ml, const Move *m)
{
    if (m->row == ML_PASS)
        return PyObject_CallNoArgs(pass_cls);
    if (m->row == ML_EXCHANGE) {
        PyObject *tiles = byte_tuple(m->tiles, m->len);
        if (!tiles)
            return NULL;
        PyObject *ex = PyObject_CallOneArg(exchange_cls, tiles);
        Py_DECREF(tiles);
        return ex;
    }
    (void)ml;
    PyObject *tiles = byte_tuple(m->tiles, m->len);
    if (!tiles)
        return NULL;
    PyObject *down = m->down ? Py_True : Py_False;
    Py_INCREF(down);
    return slot_new(&place_t, PyLong_FromLong(m->row), PyLong_FromLong(m->col), down, tiles);
}

/* The i-th Candidate (0 <= i < n), a new reference. */
static PyObject *ml_get(MoveList *ml, Py_ssize_t i)
{
    if (!ml->items) {
        ml->items = (PyObject **)PyMem_Calloc((size_t)ml->n, sizeof(PyObject *));
        if (!ml->items)
            return PyErr_NoMemory();
    }
    PyObject *o = ml->items[i];
    if (!o) {
        const Move *m = &ml->moves[i];
        PyObject *move = move_object(ml, m);
        if (!move)
            return NULL;
        o = slot_new(&cand_t, move, PyLong_FromLong(m->score), PyFloat_FromDouble(m->equity), leave_of(ml, m->leave));
        if (!o)
            return NULL;
        ml->items[i] = o;
    }
    Py_INCREF(o);
    return o;
}

PyObject *movelist_new(Gen *g, const uint8_t *full, uint32_t nleaves)
{
    if (!place_t.type || !cand_t.type || !exchange_cls || !pass_cls) {
        PyErr_SetString(PyExc_RuntimeError, "lexiko._kernel.setup() was not called");
        return NULL;
    }
    if (PyType_Ready(&MoveListType) < 0)
        return NULL;
    MoveList *ml = PyObject_New(MoveList, &MoveListType);
    if (!ml)
        return NULL;
    ml->n = (Py_ssize_t)g->nmoves;
    ml->moves = g->moves; /* taken from the Gen */
    g->moves = NULL;
    g->nmoves = g->cap = 0;
    ml->items = NULL;
    ml->list = NULL;
    ml->nleaves = nleaves ? nleaves : 1;
    ml->leaves = ml->nleaves <= 4096 ? (PyObject **)PyMem_Calloc(ml->nleaves, sizeof(PyObject *)) : NULL;
    memcpy(ml->full, full, 64);
    memcpy(ml->radix, g->radix, sizeof ml->radix);
    return (PyObject *)ml;
}

static void ml_dealloc(MoveList *ml)
{
    if (ml->items) {
        for (Py_ssize_t i = 0; i < ml->n; i++)
            Py_XDECREF(ml->items[i]);
        PyMem_Free(ml->items);
    }
    if (ml->leaves) {
        for (uint32_t i = 0; i < ml->nleaves; i++)
            Py_XDECREF(ml->leaves[i]);
        PyMem_Free(ml->leaves);
    }
    free(ml->moves);
    Py_XDECREF(ml->list);
    PyObject_Free(ml);
}

static Py_ssize_t ml_len(MoveList *ml)
{
    return ml->list ? PyList_GET_SIZE(ml->list) : ml->n;
}

static PyObject *ml_list(MoveList *ml, PyObject *unused);

/* The list the MoveList becomes (made the first time), a borrowed reference. */
static PyObject *ml_become_list(MoveList *ml)
{
    if (!ml->list)
        ml->list = ml_list(ml, NULL);
    return ml->list;
}

static PyObject *ml_item(MoveList *ml, Py_ssize_t i)
{
    if (ml->list)
        return PySequence_GetItem(ml->list, i);
    if (i < 0 || i >= ml->n) {
        PyErr_SetString(PyExc_IndexError, "MoveList index out of range");
        return NULL;
    }
    return ml_get(ml, i);
}

/* The k Candidates at start, start + step, ... in a new list. */
static PyObject *ml_range(MoveList *ml, Py_ssize_t start, Py_ssize_t step, Py_ssize_t k)
{
    PyObject *list = PyList_New(k);
    if (!list)
        return NULL;
    for (Py_ssize_t j = 0, i = start; j < k; j++, i += step) {
        PyObject *o = ml_get(ml, i);
        if (!o) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, j, o);
    }
    return list;
}

/* Every Candidate in a new list. */
static PyObject *ml_list(MoveList *ml, PyObject *unused)
{
    (void)unused;
    if (ml->list)
        return PyList_GetSlice(ml->list, 0, PyList_GET_SIZE(ml->list));
    return ml_range(ml, 0, 1, ml->n);
}

static PyObject *ml_subscript(MoveList *ml, PyObject *key)
{
    if (ml->list)
        return PyObject_GetItem(ml->list, key);
    if (PyIndex_Check(key)) {
        Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred())
            return NULL;
        return ml_item(ml, i < 0 ? i + ml->n : i);
    }
    if (PySlice_Check(key)) {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(key, &start, &stop, &step) < 0)
            return NULL;
        Py_ssize_t k = PySlice_AdjustIndices(ml->n, &start, &stop, step); /* before start is read */
        return ml_range(ml, start, step, k);
    }
    PyErr_Format(PyExc_TypeError, "MoveList indices must be integers or slices, not %.200s", Py_TYPE(key)->tp_name);
    return NULL;
}

/* The packed candidates equal to x, in order: with ``all`` how many, else the index of
 * the first (-1: none); -2 on an error (set). For `in`, index() and count(). */
static Py_ssize_t ml_find(MoveList *ml, PyObject *x, int all)
{
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < ml->n; i++) {
        PyObject *o = ml_get(ml, i);
        if (!o)
            return -2;
        int r = PyObject_RichCompareBool(o, x, Py_EQ);
        Py_DECREF(o);
        if (r < 0)
            return -2;
        if (r && !all)
            return i;
        k += r;
    }
    return all ? k : -1;
}

static int ml_contains(MoveList *ml, PyObject *x)
{
    if (ml->list)
        return PySequence_Contains(ml->list, x);
    Py_ssize_t at = ml_find(ml, x, 0);
    return at == -2 ? -1 : at >= 0;
}

/* Equal to a list or a MoveList of equal candidates, as a list is. */
static PyObject *ml_richcompare(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !(PyList_Check(a) || Py_IS_TYPE(a, &MoveListType)) ||
        !(PyList_Check(b) || Py_IS_TYPE(b, &MoveListType)))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *la = PyList_Check(a) ? Py_NewRef(a) : ml_list((MoveList *)a, NULL);
    PyObject *lb = la && PyList_Check(b) ? Py_NewRef(b) : la ? ml_list((MoveList *)b, NULL) : NULL;
    PyObject *r = la && lb ? PyObject_RichCompare(la, lb, op) : NULL;
    Py_XDECREF(la);
    Py_XDECREF(lb);
    return r;
}

static PyObject *ml_repr(MoveList *ml)
{
    PyObject *list = ml_list(ml, NULL);
    if (!list)
        return NULL;
    PyObject *r = PyObject_Repr(list);
    Py_DECREF(list);
    return r;
}

/* a + b, a MoveList, b a list or a MoveList: a list, as list + list gives. (Not with a
 * list on the left: that would also answer lst += moves with a new list, where the list
 * itself must grow; list + MoveList is refused as list + tuple is.) */
static PyObject *ml_add(PyObject *a, PyObject *b)
{
    if (!Py_IS_TYPE(a, &MoveListType) || !(PyList_Check(b) || Py_IS_TYPE(b, &MoveListType)))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *la = PyList_Check(a) ? Py_NewRef(a) : ml_list((MoveList *)a, NULL);
    PyObject *lb = la && PyList_Check(b) ? Py_NewRef(b) : la ? ml_list((MoveList *)b, NULL) : NULL;
    PyObject *r = la && lb ? PySequence_Concat(la, lb) : NULL;
    Py_XDECREF(la);
    Py_XDECREF(lb);
    return r;
}

static PyObject *ml_call(MoveList *ml, const char *name, PyObject *args, PyObject *kwargs);

static PyObject *ml_index(MoveList *ml, PyObject *args)
{
    PyObject *x;
    if (ml->list || PyTuple_GET_SIZE(args) != 1)
        return ml_call(ml, "index", args, NULL);
    x = PyTuple_GET_ITEM(args, 0);
    Py_ssize_t at = ml_find(ml, x, 0);
    if (at >= 0)
        return PyLong_FromSsize_t(at);
    if (at == -1)
        PyErr_SetString(PyExc_ValueError, "candidate is not in the MoveList");
    return NULL;
}

static PyObject *ml_count(MoveList *ml, PyObject *x)
{
    if (ml->list)
        return PyObject_CallMethod(ml->list, "count", "O", x);
    Py_ssize_t k = ml_find(ml, x, 1);
    return k < 0 ? NULL : PyLong_FromSsize_t(k);
}

static PyObject *ml_reduce(MoveList *ml, PyObject *unused)
{
    (void)unused;
    PyObject *list = ml_list(ml, NULL);
    if (!list)
        return NULL;
    return Py_BuildValue("(O(N))", (PyObject *)&PyList_Type, list);
}

/* A list method, called on the list the MoveList becomes. */
static PyObject *ml_call(MoveList *ml, const char *name, PyObject *args, PyObject *kwargs)
{
    PyObject *list = ml_become_list(ml);
    if (!list)
        return NULL;
    PyObject *f = PyObject_GetAttrString(list, name);
    if (!f)
        return NULL;
    PyObject *r = PyObject_Call(f, args, kwargs);
    Py_DECREF(f);
    return r;
}

#define ML_LIST_METHOD(name)                                                                                           \
    static PyObject *ml_##name(MoveList *ml, PyObject *args, PyObject *kwargs)                                         \
    {                                                                                                                  \
        return ml_call(ml, #name, args, kwargs);                                                                       \
    }
ML_LIST_METHOD(append)
ML_LIST_METHOD(extend)
ML_LIST_METHOD(insert)
ML_LIST_METHOD(pop)
ML_LIST_METHOD(remove)
ML_LIST_METHOD(clear)
ML_LIST_METHOD(sort)
ML_LIST_METHOD(reverse)

static int ml_ass_subscript(MoveList *ml, PyObject *key, PyObject *value)
{
    PyObject *list = ml_become_list(ml);
    if (!list)
        return -1;
    return value ? PyObject_SetItem(list, key, value) : PyObject_DelItem(list, key);
}

static PyObject *ml_inplace(MoveList *ml, PyObject *other, int repeat)
{
    PyObject *list = ml_become_list(ml);
    if (!list)
        return NULL;
    PyObject *r;
    if (repeat) {
        Py_ssize_t k = PyNumber_AsSsize_t(other, PyExc_OverflowError);
        if (k == -1 && PyErr_Occurred())
            return NULL;
        r = PySequence_InPlaceRepeat(list, k);
    } else {
        r = PySequence_InPlaceConcat(list, other);
    }
    if (!r)
        return NULL;
    Py_DECREF(r);
    Py_INCREF(ml);
    return (PyObject *)ml;
}

static PyObject *ml_iadd(PyObject *a, PyObject *b)
{
    return ml_inplace((MoveList *)a, b, 0);
}

static PyObject *ml_imul(PyObject *a, PyObject *b)
{
    return ml_inplace((MoveList *)a, b, 1);
}

#define ML_KW (METH_VARARGS | METH_KEYWORDS)
static PyMethodDef ml_methods[] = {
    {"index", (PyCFunction)ml_index, METH_VARARGS, "index(candidate) -> int: where the first equal candidate is."},
    {"append", (PyCFunction)(void (*)(void))ml_append, ML_KW, "As list.append (the MoveList becomes a list)."},
    {"extend", (PyCFunction)(void (*)(void))ml_extend, ML_KW, "As list.extend (the MoveList becomes a list)."},
    {"insert", (PyCFunction)(void (*)(void))ml_insert, ML_KW, "As list.insert (the MoveList becomes a list)."},
    {"pop", (PyCFunction)(void (*)(void))ml_pop, ML_KW, "As list.pop (the MoveList becomes a list)."},
    {"remove", (PyCFunction)(void (*)(void))ml_remove, ML_KW, "As list.remove (the MoveList becomes a list)."},
    {"clear", (PyCFunction)(void (*)(void))ml_clear, ML_KW, "As list.clear (the MoveList becomes a list)."},
    {"sort", (PyCFunction)(void (*)(void))ml_sort, ML_KW, "As list.sort (the MoveList becomes a list)."},
    {"reverse", (PyCFunction)(void (*)(void))ml_reverse, ML_KW, "As list.reverse (the MoveList becomes a list)."},
    {"count", (PyCFunction)ml_count, METH_O, "count(candidate) -> int: how many candidates are equal to it."},
    {"copy", (PyCFunction)ml_list, METH_NOARGS, "copy() -> list: the candidates in a list."},
    {"__reduce__", (PyCFunction)ml_reduce, METH_NOARGS, "Pickled as the list of its candidates."},
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, "MoveList[Candidate], for type hints."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods ml_as_sequence = {
    .sq_length = (lenfunc)ml_len,
    .sq_item = (ssizeargfunc)ml_item,
    .sq_contains = (objobjproc)ml_contains,
};

static PyMappingMethods ml_as_mapping = {
    .mp_length = (lenfunc)ml_len,
    .mp_subscript = (binaryfunc)ml_subscript,
    .mp_ass_subscript = (objobjargproc)ml_ass_subscript,
};

static PyNumberMethods ml_as_number = {
    .nb_add = ml_add,
    .nb_inplace_add = ml_iadd,
    .nb_inplace_multiply = ml_imul,
};

static PyTypeObject MoveListType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "lexiko._kernel.MoveList",
    .tp_basicsize = sizeof(MoveList),
    .tp_dealloc = (destructor)ml_dealloc,
    .tp_repr = (reprfunc)ml_repr,
    .tp_as_number = &ml_as_number,
    .tp_as_sequence = &ml_as_sequence,
    .tp_as_mapping = &ml_as_mapping,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_SEQUENCE,
    .tp_doc = "The moves generate() found, best first: a read-only sequence of Candidates made on first "
              "read, equal to the list of them.",
    .tp_richcompare = ml_richcompare,
    .tp_methods = ml_methods,
};

int movelist_ready(PyObject *module)
{
    if (PyType_Ready(&MoveListType) < 0)
        return -1;
    Py_INCREF(&MoveListType);
    if (PyModule_AddObject(module, "MoveList", (PyObject *)&MoveListType) < 0) {
        Py_DECREF(&MoveListType);
        return -1;
    }
    return 0;
}
