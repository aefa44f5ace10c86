module transmute.dev/nats-meta-check

go 1.22
