module prosewash.test/buildkit

go 1.26.8

require github.com/moby/buildkit v0.34.2

require (
	github.com/containerd/typeurl/v2 v2.3.0 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/planetscale/vtprotobuf v0.6.1-0.20240319094008-0393e58bdf10 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)
