# A client with a 4 KB receive buffer that reads one byte a second, as the slowest real readers do
# (Node cannot set SO_RCVBUF, and a paused Node socket never sees a reset). Sends `count` pipelined
# GETs for `path`, then prints, as JSON, the seconds until the kernel saw the connection leave
# ESTABLISHED (a reset or the server's FIN), or null if it stayed open for `cap` seconds.
import json, socket, sys, time

port, path, cap, count = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.connect(('127.0.0.1', port))
s.sendall((f'GET {path} HTTP/1.1\r\nHost: folio.test\r\n\r\n' * count).encode())
start = time.time()
read = 0
while time.time() - start < cap:
    # The state, not recv: bytes already in the buffer are read before a reset is reported.
    if s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0] != 1:
        print(json.dumps({'closedAfter': round(time.time() - start, 1), 'read': read}))
        sys.exit(0)
    try:
        if s.recv(1):
            read += 1
    except OSError:
        pass
    time.sleep(1)
print(json.dumps({'closedAfter': None, 'read': read}))
