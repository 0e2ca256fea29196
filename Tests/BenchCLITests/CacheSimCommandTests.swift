import Foundation
import TestSupport
import Testing

/// `bench cachesim` end to end: the binary, real files, exit statuses.
@Suite(.scratchFolder) struct CacheSimCommandTests {
    @Test func withoutASubcommandBenchPrintsUsage() throws {
        let result = try BenchProcess.run([])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: bench <subcommand>"))
        #expect(result.stdout.contains("cachesim"))
    }

    @Test func printsOneRowPerPolicyAndCapacity() throws {
        let trace = try BenchProcess.scratch().appendingPathComponent("t.csv")
        try "time,obj_id,obj_size\n1,1,10\n2,2,20\n3,1,10\n4,3,30\n5,2,20\n".write(to: trace, atomically: true, encoding: .utf8)
        let result = try BenchProcess.run(["cachesim", "--trace", trace.path, "--policy", "lru,fifo", "--capacity", "1,2"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == """
            policy,capacity,capacity_unit,requests,misses,miss_ratio,requested_bytes,missed_bytes,byte_miss_ratio
            lru,1,objects,5,5,1.000000,90,90,1.000000
            lru,2,objects,5,4,0.800000,90,80,0.888889
            fifo,1,objects,5,5,1.000000,90,90,1.000000
            fifo,2,objects,5,3,0.600000,90,60,0.666667

            """)
    }

    @Test(.enabled(if: FileManager.default.isReadableFile(atPath: BenchProcess.cloudPhysics),
                   "\(BenchProcess.cloudPhysics) is missing (it comes with ../shared, beside the package): the libCacheSim reference is not checked"))
    func reproducesLibCacheSimOnCloudPhysics() throws {
        let result = try BenchProcess.run(["cachesim", "--trace", BenchProcess.cloudPhysics, "--policy", "lru", "--capacity", "20297697", "--bytes"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("lru,20297697,bytes,113872,94956,0.833884,4368040448,4280799744,0.980027\n"))
    }

    @Test(arguments: [
        (["--policy", "mru", "--capacity", "5"], "--policy: unknown policy \"mru\"; expected one of"),
        (["--policy", "lru", "--capacity", "0"], "--capacity: expected a positive count or size"),
        (["--policy", "lru", "--capacity=-3"], "--capacity: expected a positive count or size"),
        (["--policy", "ttl", "--capacity", "5"], "--policy: ttl needs a lifetime"),
        (["--policy", "lru", "--capacity", "5", "--ttl=-1"], "--ttl: expected a non-negative lifetime"),
    ])
    func refusesBadOptionsInOneLineWithStatus2(arguments: [String], message: String) throws {
        let trace = try BenchProcess.scratch().appendingPathComponent("t.csv")
        try "1,1,1\n".write(to: trace, atomically: true, encoding: .utf8)
        let result = try BenchProcess.run(["cachesim", "--trace", trace.path] + arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("bench: \(message)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func refusesAMalformedTraceNamingFileLineAndFieldAndPrintsNothing() throws {
        let trace = try BenchProcess.scratch().appendingPathComponent("bad.csv")
        try "1,1,1\n2,2,big\n".write(to: trace, atomically: true, encoding: .utf8)
        let result = try BenchProcess.run(["cachesim", "--trace", trace.path, "--capacity", "5"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "bench: \(trace.path):2: obj_size: expected a non-negative integer no larger than 9223372036854775807, found \"big\"\n")
    }

    @Test func refusesAMissingTraceAndAMissingOption() throws {
        let missing = try BenchProcess.run(["cachesim", "--trace", "/nonexistent.csv", "--capacity", "5"])
        #expect(missing.status == 2 && missing.stderr == "bench: /nonexistent.csv: cannot open: No such file or directory\n")
        let noCapacity = try BenchProcess.run(["cachesim", "--trace", "/nonexistent.csv"])
        #expect(noCapacity.status == 2 && noCapacity.stderr.split(separator: "\n").count == 1)
    }

    /// A `bench serve --log` file is a trace as it is: image requests in arrival order, keyed by
    /// id and sized by the whole image; API calls and 404s are not accesses.
    @Test func readsABenchServeRequestLogDirectly() throws {
        let log = try BenchProcess.scratch().appendingPathComponent("requests.csv")
        try """
            time_ms,method,path,status,bytes,object_bytes,injected_delay_ms,duration_ms,connection
            0.500,GET,/v1/images/search?page=1,200,900,,300.000,300.100,1
            400.250,GET,/images/2.jpg,200,20,20,10.000,10.000,1
            300.000,GET,/images/1.jpg,200,10,10,200.000,200.000,2
            500.000,GET,/images/1.jpg,304,0,10,5.000,5.000,1
            600.000,GET,/images/77.jpg,404,60,,0.000,0.100,1
            700.000,GET,/images/3.jpg,206,5,30,5.000,5.000,2

            """.write(to: log, atomically: true, encoding: .utf8)
        let result = try BenchProcess.run(["cachesim", "--trace", log.path, "--policy", "lru", "--capacity", "30", "--bytes"])
        #expect(result.status == 0, "\(result.stderr)")
        // Accesses 1, 2, 1, 3 (10, 20, 10, 30 bytes): 1 and 2 miss, 1 hits, 3 evicts both and misses.
        #expect(result.stdout.hasSuffix("lru,30,bytes,4,3,0.750000,70,60,0.857143\n"), "\(result.stdout)")
        try "time_ms,method,path,status,bytes,object_bytes,injected_delay_ms,duration_ms,connection\n1.0,GET,/images/1.jpg,200,10,ten,0,0,1\n"
            .write(to: log, atomically: true, encoding: .utf8)
        let bad = try BenchProcess.run(["cachesim", "--trace", log.path, "--capacity", "30"])
        #expect(bad.status == 2 && bad.stderr == "bench: \(log.path):2: object_bytes: expected a whole number of at least 0, found \"ten\"\n", "\(bad.stderr)")
    }

    /// `--mrc` prints LRU's rows: at the capacities given, the very rows `--policy lru` prints;
    /// without, one at every step of the curve.
    @Test func mrcGivesLRUsRowsInOnePass() throws {
        let trace = try BenchProcess.scratch().appendingPathComponent("t.csv")
        try "time,obj_id,obj_size\n1,1,10\n2,2,20\n3,1,10\n4,3,30\n5,2,20\n6,3,30\n7,1,10\n".write(to: trace, atomically: true, encoding: .utf8)
        let curve = try BenchProcess.run(["cachesim", "--trace", trace.path, "--mrc", "--capacity", "1,2,3"])
        let lru = try BenchProcess.run(["cachesim", "--trace", trace.path, "--policy", "lru", "--capacity", "1,2,3"])
        #expect(curve.status == 0 && curve.stdout == lru.stdout, "\(curve.stdout)\(curve.stderr)")
        let steps = try BenchProcess.run(["cachesim", "--trace", trace.path, "--mrc"])
        // Distances: 1 after 2 (2), 2 after 3 (3), 3 after 1 (3), 1 after 2,3 (3): steps at 2 and 3.
        #expect(steps.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[1] } == ["2", "3"], "\(steps.stdout)")
        let refused = try BenchProcess.run(["cachesim", "--trace", trace.path, "--mrc", "--bytes"])
        #expect(refused.status == 2 && refused.stderr == "bench: --bytes: expected no --bytes with --mrc (the curve is LRU's, in objects)\n")
        let none = try BenchProcess.run(["cachesim", "--trace", trace.path])
        #expect(none.status == 2 && none.stderr == "bench: --capacity: expected capacities to replay (or --mrc for LRU's whole curve)\n")
    }

    @Test func outWritesAtomicallyAndAFailedRunKeepsThePreviousFile() throws {
        let folder = try BenchProcess.scratch()
        let trace = folder.appendingPathComponent("t.csv")
        let out = folder.appendingPathComponent("out.csv")
        try "1,1,1\n2,1,1\n".write(to: trace, atomically: true, encoding: .utf8)
        let ok = try BenchProcess.run(["cachesim", "--trace", trace.path, "--capacity", "5", "--out", out.path])
        #expect(ok.status == 0 && ok.stdout.isEmpty)
        let written = try String(contentsOf: out, encoding: .utf8)
        #expect(written.hasSuffix("lru,5,objects,2,1,0.500000,2,1,0.500000\n"))
        try "1,1,1\n2,1,oops\n".write(to: trace, atomically: true, encoding: .utf8)
        let failed = try BenchProcess.run(["cachesim", "--trace", trace.path, "--capacity", "5", "--out", out.path])
        #expect(failed.status == 2)
        #expect(try String(contentsOf: out, encoding: .utf8) == written)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["out.csv", "t.csv"])
    }

    @Test func theOutputIsTheSameWhateverTheJobs() throws {
        let folder = try BenchProcess.scratch()
        let trace = folder.appendingPathComponent("z.csv").path
        #expect(try BenchProcess.run(["trace", "zipf", "--objects", "2000", "--requests", "100000", "--seed", "3", "--out", trace]).status == 0)
        let outputs = try ["1", "2", "5"].map { jobs in
            try BenchProcess.run(["cachesim", "--trace", trace, "--policy", "lru,fifo,s3fifo,arc,belady", "--capacity", "50,500", "--jobs", jobs]).stdout
        }
        #expect(outputs[0].split(separator: "\n").count == 11 && outputs[1] == outputs[0] && outputs[2] == outputs[0])
        let refused = try BenchProcess.run(["cachesim", "--trace", trace, "--capacity", "5", "--jobs", "0"])
        #expect(refused.status == 2 && refused.stderr == "bench: --jobs: expected 1...1024 jobs, found 0\n")
    }

    @Test func zipfTracesAreByteIdenticalForTheSameArguments() throws {
        let folder = try BenchProcess.scratch()
        for name in ["a.csv", "b.csv"] {
            let result = try BenchProcess.run(["trace", "zipf", "--objects", "100", "--requests", "2000", "--seed", "5",
                                               "--out", folder.appendingPathComponent(name).path])
            #expect(result.status == 0)
        }
        let a = try Data(contentsOf: folder.appendingPathComponent("a.csv"))
        #expect(a == (try Data(contentsOf: folder.appendingPathComponent("b.csv"))))
        #expect(String(decoding: a.prefix(21), as: UTF8.self) == "time,obj_id,obj_size\n")
        let bad = try BenchProcess.run(["trace", "zipf", "--objects", "0", "--out", folder.appendingPathComponent("c.csv").path])
        #expect(bad.status == 2 && bad.stderr == "bench: --objects: expected 1...100000000 objects, found 0\n")
    }
}
