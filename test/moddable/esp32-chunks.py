# gdb script (Python), attached to a running mcsim by chunk-watch.ts: after each
# compacting collection (the end of xsMemory.c fxSweep) it walks the chunk
# heap's blocks (txBlock, then txChunk headers whose sizes chain to
# block->current: every chunk left is live) and the slot heap, and keeps the largest
#   ESP32 bound = live chunk bytes - 8 x live chunks - halved + (the chunk asked for - 8)
# The 64-bit chunk header is 16 B (txChunk: size, padding, pointer), the ESP32's
# 8 B, and content rounds to 8 B here, 4 B there; content is never larger there
# (slots 16 B not 32, pointers 4 B not 8), so each chunk is at least 8 B
# smaller on the board. `halved`: the content of the chunks that hold only slots
# (an array's items, a saved stack: the chunk a live slot of kind ARRAY or STACK
# points to) or only pointers (a Map's, Set's or the globals' table), which is
# half as large on the board. Writes its figures as JSON to $ESP32_CHUNKS_OUT.
# When a socket connects (modSocket.c socketConnected, before the callback that
# makes SecureSocket send its ClientHello: in these runs every socket is a TLS
# one, its handshake started in its turn, targets/moddable/tls-turn.ts) it forces
# a compacting collection there and keeps what is live at that moment: chunks
# (count, bytes, halved), slots, and the stack's free slots, per handshake. Not
# when the socket is made: that runs inside the callback of the connection
# dropped before it (tls-turn), and collecting there frees the socket whose
# callback runs (the lin module then crashes). A socket already closed is
# skipped: nothing keeps its object then. At each new peak it also keeps what the
# chunk heap held by kind (the kind of the live slot that points at each chunk:
# STRING, CODE for a function's byte code copied at run time, ...), the largest
# chunks, the live slots and the built-in that asked (`where`, from gdb's
# backtrace); at an abort (fxAbort), where and the slots.
import gdb, json, os, struct

out = os.environ['ESP32_CHUNKS_OUT']
state = {'collections': 0, 'maxChunks': 0, 'maxSimLive': 0, 'maxEsp32Need': 0, 'atPeak': None, 'handshakes': []}
# Set while a socket's forced collection runs: the sweep's figures go to the handshake's entry.
starting = []

def save():
    with open(out + '.tmp', 'w') as f:
        json.dump(state, f)
    os.replace(out + '.tmp', out)

def offset(field):
    return int(gdb.parse_and_eval('(long)&((txSlot*)0)->' + field))

SLOT = gdb.lookup_type('txSlot').sizeof
CHUNK_HEADER = gdb.lookup_type('txChunk').sizeof
KIND_AT = offset('kind')
ADDRESS_AT = offset('value.array.address')
# Kinds whose chunk holds only slots or only pointers (xsAll.h), half as large on the 32-bit board.
HALVED = set(int(gdb.parse_and_eval(k)) for k in (
    'XS_ARRAY_KIND', 'XS_STACK_KIND', 'XS_MAP_KIND', 'XS_SET_KIND', 'XS_WEAK_MAP_KIND', 'XS_WEAK_SET_KIND',
    'XS_GLOBAL_KIND'))

# Kind numbers by name (xsAll.h), for the peak's breakdown.
KINDS = {}
for k in ('STRING', 'ARRAY_BUFFER', 'ARRAY', 'STACK', 'CODE', 'MAP', 'SET', 'HOST', 'BIGINT', 'REGEXP', 'KEY', 'GLOBAL'):
    KINDS[int(gdb.parse_and_eval('XS_%s_KIND' % k))] = k

def walk():
    the = gdb.parse_and_eval('the')
    block = the['firstBlock']
    inferior = gdb.selected_inferior()
    header = gdb.lookup_type('txBlock').sizeof
    count = total = 0
    sizes = {}
    while int(block) != 0:
        start = int(block) + header
        memory = bytes(inferior.read_memory(start, int(block['current']) - start))
        at = 0
        while at < len(memory):
            size = struct.unpack_from('<i', memory, at)[0] & 0x7fffffff
            if size <= 0:
                raise gdb.GdbError('chunk heap: a chunk of size %d' % size)
            count += 1
            total += size
            sizes[start + at + CHUNK_HEADER] = size
            at += size
        block = block['nextBlock']
    # Live slots pointing at a chunk of slots or pointers (freed slots are of kind undefined after the sweep).
    halved = 0
    seen = set()
    kinds = {}
    heap = the['firstHeap']
    while int(heap) != 0:
        first = int(heap) + SLOT
        end = int(heap['value']['reference'])
        memory = bytes(inferior.read_memory(first, end - first))
        for at in range(0, len(memory), SLOT):
            kind = struct.unpack_from('<b', memory, at + KIND_AT)[0]
            address = struct.unpack_from('<Q', memory, at + ADDRESS_AT)[0]
            if address in sizes:
                kinds[address] = kind
            if kind in HALVED and address in sizes and address not in seen:
                seen.add(address)
                halved += (sizes[address] - CHUNK_HEADER) // 2
        heap = heap['next']
    return count, total, halved, sizes, kinds

def breakdown(sizes, kinds):
    # Bytes by the kind of slot that holds each chunk ('other': held from the stack or a kind not named).
    named = [(size, KINDS.get(kinds.get(a), 'other')) for a, size in sizes.items()]
    by_kind = {}
    for size, kind in named:
        by_kind[kind] = by_kind.get(kind, 0) + size
    return by_kind, sorted(named, key=lambda e: -e[0])[:8]

def where():
    # The built-ins and host functions under the collection, innermost first (fx_..., xs_...).
    names = []
    frame = gdb.newest_frame()
    while frame is not None and len(names) < 4:
        name = frame.name()
        if name and name.startswith(('fx_', 'xs_')) and name not in names:
            names.append(name)
        frame = frame.older()
    return names

def asked():
    frame = gdb.newest_frame()
    for _ in range(8):
        frame = frame.older()
        if frame is None:
            return 0
        if frame.name() in ('fxNewChunk', 'fxNewGrowableChunk', 'fxRenewChunk'):
            return int(frame.read_var('size'))
    return 0

class AfterSweep(gdb.Breakpoint):
    def stop(self):
        count, total, halved, sizes, kinds = walk()
        request = asked()
        need = total - 8 * count - halved + max(request - 8, 0)
        if starting:
            the = gdb.parse_and_eval('the')
            starting[0].update({'chunks': count, 'simLive': total, 'halved': halved, 'liveSlots': int(the['currentHeapCount']),
                                'heapSlots': int(the['maximumHeapCount']),
                                'stackFreeSlots': int(the['stack'] - the['stackBottom'])})
        state['collections'] += 1
        state['maxChunks'] = max(state['maxChunks'], count)
        state['maxSimLive'] = max(state['maxSimLive'], total)
        if need > state['maxEsp32Need']:
            state['maxEsp32Need'] = need
            by_kind, largest = breakdown(sizes, kinds)
            state['atPeak'] = {'chunks': count, 'simLive': total, 'halved': halved, 'request': request, 'where': where(),
                               'liveSlots': int(gdb.parse_and_eval('the')['currentHeapCount']), 'byKind': by_kind,
                               'largest': largest}
        save()
        return False

def sweep_end():
    # The last line of fxSweep's code: where the compaction has set each block's `current`.
    pc = int(gdb.parse_and_eval('(long)&fxSweep'))
    block = gdb.block_for_pc(pc)
    lines = [e for e in gdb.find_pc_line(pc).symtab.linetable() if block.start <= e.pc < block.end]
    return '*%d' % max(lines, key=lambda e: e.pc).pc

class Connected(gdb.Breakpoint):
    def stop(self):
        # A socket closed meanwhile is forgotten (xs_socket_close): no handshake, and no collection here.
        if int(gdb.parse_and_eval('((xsSocket)refcon)->done')) != 0:
            return False
        entry = {}
        starting.append(entry)
        try:
            gdb.parse_and_eval('fxCollect((txMachine*)the, 1)')
        finally:
            starting.pop()
        # A collection XS skipped (collecting off) leaves the entry empty: kept, so the count says so.
        state['handshakes'].append(entry)
        save()
        return False

class Aborted(gdb.Breakpoint):
    def stop(self):
        the = gdb.parse_and_eval('the')
        state['abort'] = {'where': where(), 'liveSlots': int(the['currentHeapCount']), 'heapSlots': int(the['maximumHeapCount'])}
        save()
        return False

AfterSweep(sweep_end())
Aborted('fxAbort')
Connected('socketConnected')
save()
print('esp32-chunks: watching', flush=True)
