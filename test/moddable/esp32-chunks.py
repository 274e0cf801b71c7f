# gdb script (Python), attached to a running mcsim by chunk-watch.ts: after each
# compacting collection (the end of xsMemory.c fxSweep) it walks the chunk
# heap's blocks (txBlock, then txChunk headers whose sizes chain to
# block->current: every chunk left is live) and keeps the largest
#   ESP32 bound = live chunk bytes - 8 x live chunks + (the chunk asked for - 8)
# The 64-bit chunk header is 16 B (txChunk: size, padding, pointer), the ESP32's
# 8 B, and content rounds to 8 B here, 4 B there; content is never larger there
# (slots 16 B not 32, pointers 4 B not 8), so each chunk is at least 8 B
# smaller on the board. Writes its figures as JSON to $ESP32_CHUNKS_OUT.
import gdb, json, os, struct

out = os.environ['ESP32_CHUNKS_OUT']
state = {'collections': 0, 'maxChunks': 0, 'maxSimLive': 0, 'maxEsp32Need': 0, 'atPeak': None}

def save():
    with open(out + '.tmp', 'w') as f:
        json.dump(state, f)
    os.replace(out + '.tmp', out)

def walk():
    the = gdb.parse_and_eval('the')
    block = the['firstBlock']
    inferior = gdb.selected_inferior()
    header = gdb.lookup_type('txBlock').sizeof
    count = total = 0
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
            at += size
        block = block['nextBlock']
    return count, total

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
        count, total = walk()
        request = asked()
        need = total - 8 * count + max(request - 8, 0)
        state['collections'] += 1
        state['maxChunks'] = max(state['maxChunks'], count)
        state['maxSimLive'] = max(state['maxSimLive'], total)
        if need > state['maxEsp32Need']:
            state['maxEsp32Need'] = need
            state['atPeak'] = {'chunks': count, 'simLive': total, 'request': request}
        save()
        return False

def sweep_end():
    # The last line of fxSweep's code: where the compaction has set each block's `current`.
    pc = int(gdb.parse_and_eval('(long)&fxSweep'))
    block = gdb.block_for_pc(pc)
    lines = [e for e in gdb.find_pc_line(pc).symtab.linetable() if block.start <= e.pc < block.end]
    return '*%d' % max(lines, key=lambda e: e.pc).pc

AfterSweep(sweep_end())
save()
print('esp32-chunks: watching', flush=True)
