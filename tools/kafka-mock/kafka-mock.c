/*
 * kafka-mock: a Kafka-protocol broker for tests and the no-Docker demo.
 *
 * A thin launcher around librdkafka's mock cluster (rdkafka_mock.h), the broker
 * Confluent maintains for librdkafka's own test suite. It speaks the real wire
 * protocol on loopback, so kafkajs talks to it exactly as it talks to Apache Kafka.
 * build.sh builds it against @confluentinc/kafka-javascript's librdkafka.
 *
 * Usage: kafka-mock [--brokers N] [--topic NAME:PARTITIONS]... [--control-port PORT]
 *
 * On start it prints one line, "BOOTSTRAP host:port,host:port", then reads
 * commands, one per line, from stdin (and from TCP clients on 127.0.0.1 when
 * --control-port is given). Every command answers one line: "ok ..." or "err ...".
 *
 *   topic NAME PARTITIONS              create a topic
 *   down BROKER|all                    broker stops accepting and drops connections
 *   up BROKER|all                      broker accepts connections again
 *   rtt BROKER|all MS                  add round-trip delay to every response
 *   errors APIKEY ERRCODE COUNT        the next COUNT requests of APIKEY fail (any broker)
 *   broker-errors BROKER APIKEY ERRCODE RTT_MS COUNT
 *                                      the next COUNT requests of APIKEY on BROKER answer
 *                                      ERRCODE after RTT_MS; ERRCODE 0 with a long RTT
 *                                      means "handled, reply lost in a timeout"
 *   clear-errors APIKEY                drop pending cluster-wide errors for APIKEY
 *   leader TOPIC PARTITION BROKER      move a partition's leader
 *   ping                               answers "ok pong"
 *   quit                               exit
 *
 * The launcher exits when stdin closes, so a crashed parent never leaks a broker.
 */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rdkafka.h"
#include "rdkafka_mock.h"

#define MAX_CLIENTS 16
#define LINE_MAX_LEN 1024

typedef struct {
  int fd;
  char buf[LINE_MAX_LEN];
  size_t len;
} conn_t;

static rd_kafka_mock_cluster_t *mcluster;
static int broker_count = 3;
static volatile sig_atomic_t stopping = 0;

static void on_signal(int sig) {
  (void)sig;
  stopping = 1;
}

static void reply(int fd, const char *fmt, ...) {
  char out[LINE_MAX_LEN];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(out, sizeof(out) - 1, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if (n > (int)sizeof(out) - 2) n = sizeof(out) - 2;
  out[n++] = '\n';
  ssize_t off = 0;
  while (off < n) {
    ssize_t w = write(fd, out + off, n - off);
    if (w <= 0) return;
    off += w;
  }
}

/* "all" means every broker (-1 in the mock API); otherwise a broker id. */
static int parse_broker(const char *s, int32_t *id) {
  if (strcmp(s, "all") == 0) {
    *id = -1;
    return 0;
  }
  char *end;
  long v = strtol(s, &end, 10);
  if (*end != '\0' || v < 0) return -1;
  *id = (int32_t)v;
  return 0;
}

static int parse_int(const char *s, long *v) {
  char *end;
  errno = 0;
  *v = strtol(s, &end, 10);
  return (*s == '\0' || *end != '\0' || errno) ? -1 : 0;
}

static int create_topic(const char *name, long partitions) {
  rd_kafka_resp_err_t err =
      rd_kafka_mock_topic_create(mcluster, name, (int)partitions, 1);
  return err ? -1 : 0;
}

static void report(int out, rd_kafka_resp_err_t err, const char *what) {
  if (err)
    reply(out, "err %s: %s", what, rd_kafka_err2str(err));
  else
    reply(out, "ok %s", what);
}

/* Runs one command line; returns 1 when the launcher should quit. */
static int run_command(char *line, int out) {
  char *argv[8];
  int argc = 0;
  for (char *tok = strtok(line, " \t\r\n"); tok && argc < 8;
       tok = strtok(NULL, " \t\r\n"))
    argv[argc++] = tok;
  if (argc == 0) return 0;
  const char *cmd = argv[0];
  int32_t broker;
  long a, b, c;

  if (strcmp(cmd, "ping") == 0) {
    reply(out, "ok pong");
  } else if (strcmp(cmd, "quit") == 0) {
    reply(out, "ok bye");
    return 1;
  } else if (strcmp(cmd, "topic") == 0 && argc == 3 && !parse_int(argv[2], &a) &&
             a > 0) {
    if (create_topic(argv[1], a))
      reply(out, "err topic %s could not be created", argv[1]);
    else
      reply(out, "ok topic %s %ld", argv[1], a);
  } else if ((strcmp(cmd, "down") == 0 || strcmp(cmd, "up") == 0) && argc == 2 &&
             !parse_broker(argv[1], &broker)) {
    rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
    /* -1 is documented for set_up/set_rtt only; loop to be explicit for all */
    int first = broker < 0 ? 0 : broker, last = broker < 0 ? broker_count : broker;
    for (int id = first; id <= last && !err; id++)
      err = cmd[0] == 'd' ? rd_kafka_mock_broker_set_down(mcluster, id)
                          : rd_kafka_mock_broker_set_up(mcluster, id);
    report(out, err, cmd);
  } else if (strcmp(cmd, "rtt") == 0 && argc == 3 && !parse_broker(argv[1], &broker) &&
             !parse_int(argv[2], &a) && a >= 0) {
    report(out, rd_kafka_mock_broker_set_rtt(mcluster, broker, (int)a), "rtt");
  } else if (strcmp(cmd, "errors") == 0 && argc == 4 && !parse_int(argv[1], &a) &&
             !parse_int(argv[2], &b) && !parse_int(argv[3], &c) && c > 0 && c < 100000) {
    rd_kafka_resp_err_t *errs = calloc((size_t)c, sizeof(*errs));
    for (long i = 0; i < c; i++) errs[i] = (rd_kafka_resp_err_t)b;
    rd_kafka_mock_push_request_errors_array(mcluster, (int16_t)a, (size_t)c, errs);
    free(errs);
    reply(out, "ok errors");
  } else if (strcmp(cmd, "broker-errors") == 0 && argc == 6 &&
             !parse_broker(argv[1], &broker) && broker >= 0 && !parse_int(argv[2], &a) &&
             !parse_int(argv[3], &b) && !parse_int(argv[4], &c)) {
    long count;
    if (parse_int(argv[5], &count) || count <= 0 || count > 10000) {
      reply(out, "err broker-errors: COUNT must be 1..10000");
      return 0;
    }
    rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
    for (long i = 0; i < count && !err; i++)
      err = rd_kafka_mock_broker_push_request_error_rtts(
          mcluster, broker, (int16_t)a, 1, (rd_kafka_resp_err_t)b, (int)c);
    report(out, err, "broker-errors");
  } else if (strcmp(cmd, "clear-errors") == 0 && argc == 2 && !parse_int(argv[1], &a)) {
    rd_kafka_mock_clear_request_errors(mcluster, (int16_t)a);
    reply(out, "ok clear-errors");
  } else if (strcmp(cmd, "leader") == 0 && argc == 4 && !parse_int(argv[2], &a) &&
             !parse_broker(argv[3], &broker) && broker >= 0) {
    report(out,
           rd_kafka_mock_partition_set_leader(mcluster, argv[1], (int32_t)a, broker),
           "leader");
  } else {
    reply(out, "err unknown or malformed command: %s (see the header of kafka-mock.c)",
          cmd);
  }
  return 0;
}

/* Feeds bytes into a connection's line buffer; returns 1 on quit. */
static int feed(conn_t *c, const char *data, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (data[i] == '\n') {
      c->buf[c->len] = '\0';
      c->len = 0;
      if (run_command(c->buf, c->fd == STDIN_FILENO ? STDOUT_FILENO : c->fd)) return 1;
    } else if (c->len < LINE_MAX_LEN - 1) {
      c->buf[c->len++] = data[i];
    }
  }
  return 0;
}

static int listen_loopback(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  struct sockaddr_in addr = {0};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons((uint16_t)port);
  if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) || listen(fd, 4)) {
    close(fd);
    return -1;
  }
  return fd;
}

static void usage(void) {
  fprintf(stderr,
          "usage: kafka-mock [--brokers N] [--topic NAME:PARTITIONS]... "
          "[--control-port PORT]\n");
  exit(2);
}

int main(int argc, char **argv) {
  const char *topics[256];
  int topic_count = 0;
  long control_port = 0;

  for (int i = 1; i < argc; i++) {
    long v;
    if (strcmp(argv[i], "--brokers") == 0 && i + 1 < argc) {
      if (parse_int(argv[++i], &v) || v < 1 || v > 9) usage();
      broker_count = (int)v;
    } else if (strcmp(argv[i], "--topic") == 0 && i + 1 < argc && topic_count < 256) {
      topics[topic_count++] = argv[++i];
    } else if (strcmp(argv[i], "--control-port") == 0 && i + 1 < argc) {
      if (parse_int(argv[++i], &control_port) || control_port < 1 || control_port > 65535)
        usage();
    } else {
      usage();
    }
  }

  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  signal(SIGPIPE, SIG_IGN);

  char errstr[512];
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "log_level", "3", errstr, sizeof(errstr));
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
  if (!rk) {
    fprintf(stderr, "kafka-mock: cannot create handle: %s\n", errstr);
    return 1;
  }
  mcluster = rd_kafka_mock_cluster_new(rk, broker_count);
  if (!mcluster) {
    fprintf(stderr, "kafka-mock: cannot create the mock cluster\n");
    return 1;
  }
  /* The mock reports controller id 0 while its brokers count from 1; kafkajs
   * asks the controller for producer ids, so give it a broker 0. */
  rd_kafka_mock_broker_add(mcluster, 0);
  /* kafkajs cannot decode the mock's LeaveGroup v3 response (ApiKey 13). */
  rd_kafka_mock_set_apiversion(mcluster, 13, 0, 2);
  /* Tests join groups constantly; Kafka's 3 s initial rebalance delay only slows them. */
  rd_kafka_mock_group_initial_rebalance_delay_ms(mcluster, 0);

  for (int i = 0; i < topic_count; i++) {
    char *spec = strdup(topics[i]);
    char *colon = strrchr(spec, ':');
    long partitions = 1;
    if (colon) {
      *colon = '\0';
      if (parse_int(colon + 1, &partitions) || partitions < 1) usage();
    }
    if (create_topic(spec, partitions)) {
      fprintf(stderr, "kafka-mock: cannot create topic %s\n", spec);
      return 1;
    }
    free(spec);
  }

  int listener = -1;
  if (control_port) {
    listener = listen_loopback((int)control_port);
    if (listener < 0) {
      fprintf(stderr, "kafka-mock: cannot listen on 127.0.0.1:%ld: %s\n", control_port,
              strerror(errno));
      return 1;
    }
  }

  printf("BOOTSTRAP %s\n", rd_kafka_mock_cluster_bootstraps(mcluster));
  fflush(stdout);

  conn_t conns[MAX_CLIENTS + 1];
  int nconns = 1;
  conns[0].fd = STDIN_FILENO;
  conns[0].len = 0;

  while (!stopping) {
    struct pollfd pfds[MAX_CLIENTS + 2];
    int n = 0;
    for (int i = 0; i < nconns; i++) pfds[n++] = (struct pollfd){conns[i].fd, POLLIN, 0};
    if (listener >= 0) pfds[n++] = (struct pollfd){listener, POLLIN, 0};
    if (poll(pfds, (nfds_t)n, 500) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (listener >= 0 && (pfds[n - 1].revents & POLLIN) && nconns <= MAX_CLIENTS) {
      int fd = accept(listener, NULL, NULL);
      if (fd >= 0) conns[nconns++] = (conn_t){.fd = fd, .len = 0};
    }
    for (int i = nconns - 1; i >= 0; i--) {
      if (!(pfds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char data[512];
      ssize_t r = read(conns[i].fd, data, sizeof(data));
      if (r <= 0) {
        if (i == 0) stopping = 1; /* stdin closed: the parent is gone */
        else {
          close(conns[i].fd);
          conns[i] = conns[--nconns];
        }
        continue;
      }
      if (feed(&conns[i], data, (size_t)r)) stopping = 1;
      fflush(stdout);
    }
  }

  rd_kafka_mock_cluster_destroy(mcluster);
  rd_kafka_destroy(rk);
  return 0;
}
