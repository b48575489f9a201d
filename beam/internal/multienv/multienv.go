// Package multienv submits a pipeline to a portable runner (Beam's
// universal runner: a job service such as Prism's, Flink's or Spark's)
// with some of its steps in environments of their own.
//
// A runner starts workers per environment, and Prism starts exactly one
// worker for each environment of the pipeline (Beam 2.77,
// runners/prism/internal/execute.go, RunPipeline: one j.MakeWorker and
// one runEnvironment per environment ID) and does not fuse steps of
// different environments into one stage (preprocess.go, greedyFusion).
// So a pipeline whose line-reading steps are split in parts
// (pipeline.Config.Parts), each part in an environment of its own, runs
// each part in a worker of its own: with EXTERNAL environments, each in a
// worker process that the worker pool (the Go SDK container's boot
// --worker_pool) starts on the runner's StartWorker request. That is what
// a cluster of several worker machines does with the lines, rehearsed on
// one machine.
//
// The environments are copies of the one --environment_type and
// --environment_config describe (the same worker binary). The workers tag
// their metrics' short IDs, which Prism would otherwise mix up between
// workers (see shortIDHook).
package multienv

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/graphx"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/xlangx"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/util/hooks"
	pipepb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/pipeline_v1"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal/extworker"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal/runnerlib"
	"google.golang.org/protobuf/proto"
)

// Marshal is p as the universal runner submits it (Beam's runner API),
// its steps in one environment of the given URN and configuration.
func Marshal(ctx context.Context, p *beam.Pipeline, urn string, cfg func(context.Context) string) (*pipepb.Pipeline, error) {
	edges, _, err := p.Build()
	if err != nil {
		return nil, err
	}
	xlangx.ResolveArtifacts(ctx, edges, nil)
	env, err := graphx.CreateEnvironment(ctx, urn, cfg)
	if err != nil {
		return nil, fmt.Errorf("multienv: the environment: %w", err)
	}
	pb, err := graphx.Marshal(edges, &graphx.Options{Environment: env, PipelineResourceHints: jobopts.GetPipelineResourceHints()})
	if err != nil {
		return nil, fmt.Errorf("multienv: the pipeline: %w", err)
	}
	return pb, nil
}

// Execute runs p on the job service --endpoint names, as the universal
// runner does, with each step whose unique name envOf maps to i > 0 in
// environment i (a copy of the default environment, ID "ENV-i" where ENV
// is the default's) and the others in the default environment.
func Execute(ctx context.Context, p *beam.Pipeline, envOf func(uniqueName string) int) (beam.PipelineResult, error) {
	if !beam.Initialized() {
		return nil, errors.New("multienv: beam.Init was not called")
	}
	endpoint, err := jobopts.GetEndpoint()
	if err != nil {
		return nil, err
	}
	envCfg := jobopts.GetEnvironmentConfig
	if jobopts.IsLoopback() {
		// The workers are goroutines of this process, one per
		// environment all the same.
		srv, err := extworker.StartLoopback(ctx, 0)
		if err != nil {
			return nil, err
		}
		defer srv.Stop(ctx)
		envCfg = srv.EnvironmentConfig
	}
	pb, err := Marshal(ctx, p, jobopts.GetEnvironmentUrn(ctx), envCfg)
	if err != nil {
		return nil, err
	}
	// The copies of the environment name the worker binary as the
	// default one does: set it before they are made.
	bin := *jobopts.WorkerBinary
	if bin == "" {
		self, ok := runnerlib.IsWorkerCompatibleBinary()
		if !ok {
			return nil, errors.New("multienv: --worker_binary is needed: this executable cannot run on the workers")
		}
		bin = self
	}
	if err := runnerlib.UpdateGoEnvironmentWorker(bin, pb); err != nil {
		return nil, fmt.Errorf("multienv: the worker binary: %w", err)
	}
	made, err := Split(pb, envOf)
	if err != nil {
		return nil, err
	}
	// Each copy's worker binary under a name of its own (a link to it):
	// the Go SDK's boot stages the binary as N-NAME in one directory
	// (--semi_persist_dir/staged, the same for every worker of a pool),
	// N counting from 1 in each boot process (Beam 2.77,
	// pkg/beam/artifact/materialize.go, generateId), so two workers
	// staging the same name write one file at once and may run it torn:
	// a worker dying of SIGSEGV before it connects.
	links, err := os.MkdirTemp("", "urlkit-multienv-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(links)
	for _, id := range made {
		if err := renameWorker(pb.GetComponents().GetEnvironments()[id], bin, filepath.Join(links, filepath.Base(bin)+"-"+id)); err != nil {
			return nil, fmt.Errorf("multienv: environment %s: %w", id, err)
		}
	}
	// The workers' metrics IDs must not clash (see shortIDHook).
	if err := hooks.EnableHook(shortIDHook); err != nil {
		return nil, err
	}
	return runnerlib.Execute(ctx, pb, endpoint, &runnerlib.JobOptions{
		Name:         jobopts.GetJobName(),
		Experiments:  jobopts.GetExperiments(),
		Worker:       bin,
		RetainDocker: *jobopts.RetainDockerContainers,
		Parallelism:  *jobopts.Parallelism,
		Loopback:     jobopts.IsLoopback(),
	}, *jobopts.Async)
}

// Split puts each leaf step of pb whose unique name envOf maps to i > 0,
// and that has an environment (the runner's own steps, such as
// GroupByKey, have none), in a copy of its environment with ID "ENV-i",
// where ENV is the step's environment's ID. It returns an error when a
// step is in an environment the pipeline lacks, or when an ID it would
// make is taken by one of the pipeline's.
//
// It returns the IDs of the environments it made, sorted.
func Split(pb *pipepb.Pipeline, envOf func(uniqueName string) int) ([]string, error) {
	comps := pb.GetComponents()
	envs := comps.GetEnvironments()
	original := maps.Clone(envs)
	for _, id := range slices.Sorted(maps.Keys(comps.GetTransforms())) {
		t := comps.GetTransforms()[id]
		i := envOf(t.GetUniqueName())
		if i <= 0 || len(t.GetSubtransforms()) > 0 {
			continue
		}
		base := t.GetEnvironmentId()
		if base == "" {
			// Impulse and GroupByKey are the runner's.
			continue
		}
		if _, ok := original[base]; !ok {
			return nil, fmt.Errorf("multienv: step %q is in environment %q, which the pipeline does not have", t.GetUniqueName(), base)
		}
		newID := fmt.Sprintf("%s-%d", base, i)
		if _, ok := original[newID]; ok {
			return nil, fmt.Errorf("multienv: the pipeline has an environment %q already", newID)
		}
		if _, ok := envs[newID]; !ok {
			envs[newID] = proto.Clone(original[base]).(*pipepb.Environment)
		}
		t.EnvironmentId = newID
	}
	var made []string
	for id := range envs {
		if _, ok := original[id]; !ok {
			made = append(made, id)
		}
	}
	slices.Sort(made)
	return made, nil
}

// renameWorker makes link a symbolic link to the worker binary bin and
// names it as env's Go worker binary (with bin's checksum).
func renameWorker(env *pipepb.Environment, bin, link string) error {
	abs, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	if err := os.Symlink(abs, link); err != nil {
		return err
	}
	for _, dep := range env.GetDependencies() {
		if dep.GetRoleUrn() != graphx.URNArtifactGoWorkerRole || dep.GetTypeUrn() != graphx.URNArtifactFileType {
			continue
		}
		var file pipepb.ArtifactFilePayload
		if err := proto.Unmarshal(dep.GetTypePayload(), &file); err != nil {
			return err
		}
		file.Path = link
		if dep.TypePayload, err = proto.Marshal(&file); err != nil {
			return err
		}
		return nil
	}
	return errors.New("no Go worker binary among its dependencies")
}
