//  Copyright (c) 2023 Couchbase, Inc.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
// 		http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package zap

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"
	index "github.com/blevesearch/bleve_index_api"
	seg "github.com/blevesearch/scorch_segment_api/v2"
	"github.com/blevesearch/vellum"
)

func init() {
	registerSegmentSection(SectionInvertedTextIndex, &invertedTextIndexSection{})
}

type invertedTextIndexSection struct {
}

// This function checks whether the inverted text index section should avoid processing
// a particular field, preventing unnecessary work if another section will handle it.
//
// NOTE: The exclusion check is applicable only to the InvertedTextIndexSection
// because it serves as a catch-all section. This section processes every field
// unless explicitly excluded, similar to a "default" case in a switch statement.
// Other sections, such as VectorSection and SynonymSection, rely on inclusion
// checks to process only specific field types (e.g., index.VectorField or
// index.SynonymField). Any new section added in the future must define its
// special field type and inclusion logic explicitly.
var isFieldExcludedFromInvertedTextIndexSection = func(field index.Field) bool {
	for _, excludeField := range invertedTextIndexSectionExclusionChecks {
		if excludeField(field) {
			// atleast one section has agreed to exclude this field
			// from inverted text index section processing and has
			// agreed to process it independently
			return true
		}
	}
	// no section has excluded this field from inverted index processing
	// so it should be processed by the inverted index section
	return false
}

// List of checks to determine if a field is excluded from the inverted text index section
var invertedTextIndexSectionExclusionChecks = make([]func(field index.Field) bool, 0)

func (i *invertedTextIndexSection) Process(opaque map[int]resetable, docNum uint32, field index.Field, fieldID uint16) {
	if !isFieldExcludedFromInvertedTextIndexSection(field) {
		io := i.getInvertedIndexOpaque(opaque)
		io.process(field, fieldID, docNum)
	}
}

func (i *invertedTextIndexSection) Persist(opaque map[int]resetable, w *FileWriter) error {
	io := i.getInvertedIndexOpaque(opaque)
	return io.writeDicts(w)
}

func (i *invertedTextIndexSection) AddrForField(opaque map[int]resetable, fieldID int) int {
	io := i.getInvertedIndexOpaque(opaque)
	return io.fieldAddrs[fieldID]
}

func mergeAndPersistInvertedSection(segments []*SegmentBase, dropsIn []*roaring.Bitmap,
	fieldsInv []string, fieldsMap map[string]uint16, fieldsOptions map[string]index.FieldIndexingOptions,
	fieldsSame bool, newDocNumsIn [][]uint64, newSegDocCount uint64, chunkMode uint32, w *FileWriter,
	closeCh chan struct{}) (map[int]int, error) {
	var bufMaxVarintLen64 []byte = make([]byte, binary.MaxVarintLen64)
	var bufLoc []uint64

	var postItr *PostingsIterator
	// sponge: the postings list of the term in each segment in focus, read
	// once to count the term's documents and then merged from
	lists := make([]*PostingsList, len(segments))

	fieldAddrs := make(map[int]int)
	dictOffsets := make([]uint64, len(fieldsInv))
	fieldDvLocsStart := make([]uint64, len(fieldsInv))
	fieldDvLocsEnd := make([]uint64, len(fieldsInv))

	// copying data directly is safe only if there are no
	// file callbacks that might modify the data in all
	// of the involved segments and the current writer
	copyFlag := true
	for _, segment := range segments {
		if segment.fileReader.id != "" {
			copyFlag = false
			break
		}
	}
	if w.id != "" {
		copyFlag = false
	}

	// these int coders are initialized with chunk size 1024
	// however this will be reset to the correct chunk size
	// while processing each individual field-term section
	tfEncoder := newChunkedIntCoder(1024, newSegDocCount-1)
	locEncoder := newChunkedIntCoder(1024, newSegDocCount-1)

	var vellumBuf bytes.Buffer
	newVellum, err := vellum.New(&vellumBuf, vellumBuilderOpts)
	if err != nil {
		return nil, err
	}

	newRoaring := &mergedDocs{} // sponge: not a roaring bitmap
	newDocNums := make([][]uint64, 0, len(segments))
	drops := make([]*roaring.Bitmap, 0, len(segments))
	dicts := make([]*Dictionary, 0, len(segments))
	itrs := make([]vellum.Iterator, 0, len(segments))
	segmentsInFocus := make([]*SegmentBase, 0, len(segments))
	// for each field
	for fieldID, fieldName := range fieldsInv {
		// collect FST iterators from all active segments for this field
		newDocNums = newDocNums[:0]
		drops = drops[:0]
		dicts = dicts[:0]
		itrs = itrs[:0]
		segmentsInFocus = segmentsInFocus[:0]
		for segmentI, segment := range segments {
			// check for the closure in meantime
			if isClosed(closeCh) {
				return nil, seg.ErrClosed
			}
			// early exit if the field's index option is false
			if !fieldsOptions[fieldName].IsIndexed() {
				continue
			}

			dict, err2 := segment.dictionary(fieldName)
			if err2 != nil {
				return nil, err2
			}
			if dict != nil && dict.fst != nil {
				itr, err2 := dict.fst.Iterator(nil, nil)
				if err2 != nil && err2 != vellum.ErrIteratorDone {
					return nil, err2
				}
				if itr != nil {
					newDocNums = append(newDocNums, newDocNumsIn[segmentI])
					if dropsIn[segmentI] != nil && !dropsIn[segmentI].IsEmpty() {
						drops = append(drops, dropsIn[segmentI])
					} else {
						drops = append(drops, nil)
					}
					dicts = append(dicts, dict)
					itrs = append(itrs, itr)
					segmentsInFocus = append(segmentsInFocus, segment)
				}
			}
		}

		var prevTerm []byte

		newRoaring.Clear()

		var lastDocNum, lastFreq, lastNorm uint64

		// determines whether to use "1-hit" encoding optimization
		// when a term appears in only 1 doc, with no loc info,
		// has freq of 1, and the docNum fits into 31-bits
		use1HitEncoding := func(termCardinality uint64) (bool, uint64, uint64) {
			if termCardinality == uint64(1) && locEncoder.FinalSize() <= 0 {
				docNum := uint64(newRoaring.Minimum())
				if under32Bits(docNum) && docNum == lastDocNum && lastFreq == 1 {
					return true, docNum, lastNorm
				}
			}
			return false, 0, 0
		}

		finishTerm := func(term []byte) error {
			tfEncoder.Close()
			locEncoder.Close()

			postingsOffset, err := writeMergedPostings(newRoaring,
				tfEncoder, locEncoder, use1HitEncoding, w, bufMaxVarintLen64)
			if err != nil {
				return err
			}

			if postingsOffset > 0 {
				err = newVellum.Insert(term, postingsOffset)
				if err != nil {
					return err
				}
			}

			newRoaring.Clear()

			tfEncoder.Reset()
			locEncoder.Reset()

			lastDocNum = 0
			lastFreq = 0
			lastNorm = 0

			return nil
		}

		enumerator, err := newEnumerator(itrs)

		for err == nil {
			term, itrI, _ := enumerator.Current()

			if !bytes.Equal(prevTerm, term) {
				// check for the closure in meantime
				if isClosed(closeCh) {
					return nil, seg.ErrClosed
				}

				// if the term changed, write out the info collected
				// for the previous term
				err = finishTerm(prevTerm)
				if err != nil {
					return nil, err
				}
			}
			if !bytes.Equal(prevTerm, term) || prevTerm == nil {
				// compute cardinality of field-term in new seg
				var newCard uint64
				lowItrIdxs, lowItrVals := enumerator.GetLowIdxsAndValues()
				for i, idx := range lowItrIdxs {
					lists[idx], err = dicts[idx].postingsListFromOffset(lowItrVals[i], drops[idx], lists[idx])
					if err != nil {
						return nil, err
					}
					newCard += lists[idx].Count()
				}
				// compute correct chunk size with this
				chunkSize, err := getChunkSize(chunkMode, newCard, newSegDocCount)
				if err != nil {
					return nil, err
				}
				// update encoders chunk
				tfEncoder.SetChunkSize(chunkSize, newSegDocCount-1)
				locEncoder.SetChunkSize(chunkSize, newSegDocCount-1)
			}

			// sponge: the list read for the count (itrI is one of the
			// term's low iterators), not read again
			postings := lists[itrI]

			postItr = postings.iterator(true, true, true, postItr)

			// can only safely copy data if all segments have same fields and all have an empty
			// writer id (i.e. no callbacks)
			if fieldsSame && copyFlag {
				// can optimize by copying freq/norm/loc bytes directly
				lastDocNum, lastFreq, lastNorm, err = mergeTermFreqNormLocsByCopying(
					term, postItr, newDocNums[itrI], newRoaring,
					tfEncoder, locEncoder)
			} else {
				lastDocNum, lastFreq, lastNorm, bufLoc, err = mergeTermFreqNormLocs(
					fieldsMap, term, postItr, newDocNums[itrI], newRoaring,
					tfEncoder, locEncoder, bufLoc)
			}
			if err != nil {
				return nil, err
			}

			prevTerm = prevTerm[:0] // copy to prevTerm in case Next() reuses term mem
			prevTerm = append(prevTerm, term...)

			err = enumerator.Next()
		}
		if err != vellum.ErrIteratorDone {
			return nil, err
		}
		// close the enumerator to free the underlying iterators
		err = enumerator.Close()
		if err != nil {
			return nil, err
		}

		err = finishTerm(prevTerm)
		if err != nil {
			return nil, err
		}

		dictOffset := uint64(w.Count())

		err = newVellum.Close()
		if err != nil {
			return nil, err
		}
		vellumData := w.process(vellumBuf.Bytes())

		// write out the length of the vellum data
		n := binary.PutUvarint(bufMaxVarintLen64, uint64(len(vellumData)))
		_, err = w.Write(bufMaxVarintLen64[:n])
		if err != nil {
			return nil, err
		}

		// write this vellum to disk
		_, err = w.Write(vellumData)
		if err != nil {
			return nil, err
		}

		dictOffsets[fieldID] = dictOffset

		fieldDvLocsStart[fieldID] = uint64(w.Count())

		// update the field doc values
		// NOTE: doc values continue to use legacy chunk mode
		chunkSize, err := getChunkSize(LegacyChunkMode, 0, 0)
		if err != nil {
			return nil, err
		}
		if fieldsOptions[fieldName].SkipDVChunking() {
			chunkSize = 1
		}
		fdvEncoder := newChunkedContentCoder(chunkSize, newSegDocCount-1, w, true, fieldsOptions[fieldName].SkipDVCompression())

		fdvReadersAvailable := false
		var dvIterClone *docValueReader
		var dvIter *docValueReader
		for segmentI, segment := range segmentsInFocus {
			// check for the closure in meantime
			if isClosed(closeCh) {
				return nil, seg.ErrClosed
			}
			// early exit if docvalues are not wanted for this field
			if !fieldsOptions[fieldName].IncludeDocValues() {
				continue
			}
			fieldIDPlus1 := uint16(segment.fieldsMap[fieldName])
			dvIter = segment.fieldDvReaders[SectionInvertedTextIndex][fieldIDPlus1-1]
			if dvIter != nil {
				fdvReadersAvailable = true
				dvIterClone = dvIter.cloneInto(dvIterClone)
				err = dvIterClone.iterateAllDocValues(segment, func(docNum uint64, terms []byte) error {
					if newDocNums[segmentI][docNum] == docDropped {
						return nil
					}
					err := fdvEncoder.Add(newDocNums[segmentI][docNum], terms)
					if err != nil {
						return err
					}
					return nil
				})
				if err != nil {
					return nil, err
				}
			}
		}

		if fdvReadersAvailable {
			err = fdvEncoder.Close()
			if err != nil {
				return nil, err
			}

			// persist the doc value details for this field
			_, err = fdvEncoder.Write()
			if err != nil {
				return nil, err
			}

			// get the field doc value offset (end)
			fieldDvLocsEnd[fieldID] = uint64(w.Count())
		} else {
			fieldDvLocsStart[fieldID] = fieldNotUninverted
			fieldDvLocsEnd[fieldID] = fieldNotUninverted
		}

		fieldStart := w.Count()

		n = binary.PutUvarint(bufMaxVarintLen64, fieldDvLocsStart[fieldID])
		_, err = w.Write(bufMaxVarintLen64[:n])
		if err != nil {
			return nil, err
		}

		n = binary.PutUvarint(bufMaxVarintLen64, fieldDvLocsEnd[fieldID])
		_, err = w.Write(bufMaxVarintLen64[:n])
		if err != nil {
			return nil, err
		}

		n = binary.PutUvarint(bufMaxVarintLen64, dictOffsets[fieldID])
		_, err = w.Write(bufMaxVarintLen64[:n])
		if err != nil {
			return nil, err
		}

		fieldAddrs[fieldID] = fieldStart

		// reset vellum buffer and vellum builder
		vellumBuf.Reset()
		err = newVellum.Reset(&vellumBuf)
		if err != nil {
			return nil, err
		}
	}
	return fieldAddrs, nil
}

func (i *invertedTextIndexSection) Merge(opaque map[int]resetable, segments []*SegmentBase,
	drops []*roaring.Bitmap, fieldsInv []string, newDocNumsIn [][]uint64,
	w *FileWriter, closeCh chan struct{}) error {
	io := i.getInvertedIndexOpaque(opaque)
	fieldAddrs, err := mergeAndPersistInvertedSection(segments, drops, fieldsInv,
		io.FieldsMap, io.FieldsOptions, io.fieldsSame, newDocNumsIn, io.numDocs, io.chunkMode, w, closeCh)
	if err != nil {
		return err
	}

	io.fieldAddrs = fieldAddrs
	return nil
}

func (i *invertedIndexOpaque) grabBuf(size int) []byte {
	buf := i.tmp0
	if cap(buf) < size {
		buf = make([]byte, size)
		i.tmp0 = buf
	}
	return buf[:size]
}

func (i *invertedIndexOpaque) incrementBytesWritten(bytes uint64) {
	i.bytesWritten += bytes
}

func (i *invertedIndexOpaque) BytesWritten() uint64 {
	return i.bytesWritten
}

func (i *invertedIndexOpaque) BytesRead() uint64 {
	return 0
}

func (i *invertedIndexOpaque) ResetBytesRead(uint64) {}

func (io *invertedIndexOpaque) writeDicts(w *FileWriter) error {
	if len(io.results) == 0 {
		return nil
	}

	dictOffsets := make([]uint64, len(io.FieldsInv))
	var err error

	fdvOffsetsStart := make([]uint64, len(io.FieldsInv))
	fdvOffsetsEnd := make([]uint64, len(io.FieldsInv))

	buf := io.grabBuf(binary.MaxVarintLen64)

	// these int coders are initialized with chunk size 1024
	// however this will be reset to the correct chunk size
	// while processing each individual field-term section
	tfEncoder := newChunkedIntCoder(1024, uint64(len(io.results)-1))
	locEncoder := newChunkedIntCoder(1024, uint64(len(io.results)-1))

	var docTermMap [][]byte

	if io.builder == nil {
		io.builder, err = vellum.New(&io.builderBuf, vellumBuilderOpts)
		if err != nil {
			return err
		}
	}

	for fieldID, terms := range io.DictKeys {
		if cap(docTermMap) < len(io.results) {
			docTermMap = make([][]byte, len(io.results))
		} else {
			docTermMap = docTermMap[:len(io.results)]
			for docNum := range docTermMap { // reset the docTermMap
				docTermMap[docNum] = docTermMap[docNum][:0]
			}
		}

		dict := io.Dicts[fieldID]
		// sponge: the postings list of each term, kept by realloc in the
		// terms' order, rather than looked up again
		var pids []uint64
		if fieldID < len(io.dictPids) {
			pids = io.dictPids[fieldID]
		}
		docValues := io.IncludeDocValues[fieldID]

		for t, term := range terms { // terms are already sorted
			var pid uint64
			if pids != nil {
				pid = pids[t]
			} else {
				pid = dict[term] - 1
			}

			if io.fast {
				err = io.writeFastPostings(w, term, pid, tfEncoder, locEncoder, docTermMap, docValues, buf)
				if err != nil {
					return err
				}
				continue
			}

			postingsBS := io.Postings[pid]

			freqNorms := io.FreqNorms[pid]
			freqNormOffset := 0

			locs := io.Locs[pid]
			locOffset := 0

			var cardinality uint64
			if postingsBS != nil {
				cardinality = postingsBS.GetCardinality()
			}
			chunkSize, err := getChunkSize(io.chunkMode, cardinality, uint64(len(io.results)))
			if err != nil {
				return err
			}
			tfEncoder.SetChunkSize(chunkSize, uint64(len(io.results)-1))
			locEncoder.SetChunkSize(chunkSize, uint64(len(io.results)-1))

			postingsItr := postingsBS.Iterator()
			for postingsItr.HasNext() {
				docNum := uint64(postingsItr.Next())

				freqNorm := freqNorms[freqNormOffset]

				// check if freq/norm is enabled
				if freqNorm.freq > 0 {
					err = tfEncoder.Add(docNum,
						encodeFreqHasLocs(freqNorm.freq, freqNorm.numLocs > 0),
						uint64(math.Float32bits(freqNorm.norm)))
				} else {
					// if disabled, then skip the norm part
					err = tfEncoder.Add(docNum,
						encodeFreqHasLocs(freqNorm.freq, freqNorm.numLocs > 0))
				}
				if err != nil {
					return err
				}

				if freqNorm.numLocs > 0 {
					numBytesLocs := 0
					for _, loc := range locs[locOffset : locOffset+freqNorm.numLocs] {
						numBytesLocs += totalUvarintBytes(
							uint64(loc.fieldID), loc.pos, loc.start, loc.end,
							uint64(len(loc.arrayposs)), loc.arrayposs)
					}

					err = locEncoder.Add(docNum, uint64(numBytesLocs))
					if err != nil {
						return err
					}
					for _, loc := range locs[locOffset : locOffset+freqNorm.numLocs] {
						err = locEncoder.Add(docNum,
							uint64(loc.fieldID), loc.pos, loc.start, loc.end,
							uint64(len(loc.arrayposs)))
						if err != nil {
							return err
						}

						err = locEncoder.Add(docNum, loc.arrayposs...)
						if err != nil {
							return err
						}
					}
					locOffset += freqNorm.numLocs
				}

				freqNormOffset++

				if docValues { // sponge: read only for doc values
					docTermMap[docNum] = append(
						append(docTermMap[docNum], term...),
						index.DocValueTermSeparator)
				}
			}

			tfEncoder.Close()
			locEncoder.Close()
			io.incrementBytesWritten(locEncoder.getBytesWritten())
			io.incrementBytesWritten(tfEncoder.getBytesWritten())

			postingsOffset, err :=
				writePostings(postingsBS, tfEncoder, locEncoder, nil, w, buf)
			if err != nil {
				return err
			}

			if postingsOffset > uint64(0) {
				err = io.builder.Insert([]byte(term), postingsOffset)
				if err != nil {
					return err
				}
			}

			tfEncoder.Reset()
			locEncoder.Reset()
		}

		err = io.builder.Close()
		if err != nil {
			return err
		}

		// record where this dictionary starts
		dictOffsets[fieldID] = uint64(w.Count())

		vellumData := w.process(io.builderBuf.Bytes())

		// write out the length of the vellum data
		n := binary.PutUvarint(buf, uint64(len(vellumData)))
		_, err = w.Write(buf[:n])
		if err != nil {
			return err
		}

		io.incrementBytesWritten(uint64(len(vellumData)))

		// write this vellum to disk
		_, err = w.Write(vellumData)
		if err != nil {
			return err
		}

		// reset vellum for reuse
		io.builderBuf.Reset()

		err = io.builder.Reset(&io.builderBuf)
		if err != nil {
			return err
		}

		// write the field doc values
		// NOTE: doc values continue to use legacy chunk mode
		chunkSize, err := getChunkSize(LegacyChunkMode, 0, 0)
		if err != nil {
			return err
		}
		if io.FieldsOptions[io.FieldsInv[fieldID]].SkipDVChunking() {
			chunkSize = 1
		}
		fdvEncoder := newChunkedContentCoder(chunkSize, uint64(len(io.results)-1), w, false, io.FieldsOptions[io.FieldsInv[fieldID]].SkipDVCompression())
		if io.IncludeDocValues[fieldID] {
			for docNum, docTerms := range docTermMap {
				if fieldTermMap, ok := io.extraDocValues[docNum]; ok {
					if sTerms, ok := fieldTermMap[uint16(fieldID)]; ok {
						for _, sTerm := range sTerms {
							docTerms = append(append(docTerms, sTerm...), index.DocValueTermSeparator)
						}
					}
				}
				if len(docTerms) > 0 {
					err = fdvEncoder.Add(uint64(docNum), docTerms)
					if err != nil {
						return err
					}
				}
			}
			err = fdvEncoder.Close()
			if err != nil {
				return err
			}

			io.incrementBytesWritten(fdvEncoder.getBytesWritten())

			fdvOffsetsStart[fieldID] = uint64(w.Count())

			_, err = fdvEncoder.Write()
			if err != nil {
				return err
			}

			fdvOffsetsEnd[fieldID] = uint64(w.Count())
			fdvEncoder.Reset()
		} else {
			fdvOffsetsStart[fieldID] = fieldNotUninverted
			fdvOffsetsEnd[fieldID] = fieldNotUninverted
		}

		fieldStart := w.Count()

		n = binary.PutUvarint(buf, fdvOffsetsStart[fieldID])
		_, err = w.Write(buf[:n])
		if err != nil {
			return err
		}

		n = binary.PutUvarint(buf, fdvOffsetsEnd[fieldID])
		_, err = w.Write(buf[:n])
		if err != nil {
			return err
		}

		n = binary.PutUvarint(buf, dictOffsets[fieldID])
		_, err = w.Write(buf[:n])
		if err != nil {
			return err
		}

		io.fieldAddrs[fieldID] = fieldStart
	}

	return nil
}

func (io *invertedIndexOpaque) process(field index.Field, fieldID uint16, docNum uint32) {
	if !io.init && io.results != nil {
		io.realloc()
		io.init = true
	}

	// if the fieldID is MaxUint16, it's mainly indicated that the caller has
	// finished invoking the process() for every field on that doc.
	if fieldID == math.MaxUint16 && io.fast {
		// sponge: the document's terms as realloc found them, without
		// looking each up again or adding to a bitmap one by one
		// (one record of the document, its frequency and norm in the
		// list: one write to the list, not one to each of two)
		for _, t := range io.docTerms[io.docTermsAt[docNum]:io.docTermsAt[docNum+1]] {
			io.postingDocs[t.pid] = append(io.postingDocs[t.pid], fastPosting{
				doc:  docNum,
				freq: t.freq,
				norm: math.Float32frombits(uint32(io.reusableFieldLens[t.field])),
			})
		}
		for i := 0; i < len(io.FieldsInv); i++ { // clear these for reuse
			io.reusableFieldLens[i] = 0
			io.reusableFieldTFs[i] = nil
		}
		return
	}
	if fieldID == math.MaxUint16 {
		for fid, tfs := range io.reusableFieldTFs {
			dict := io.Dicts[fid]
			norm := math.Float32frombits(uint32(io.reusableFieldLens[fid]))

			for term, tf := range tfs {
				pid := dict[term] - 1
				bs := io.Postings[pid]
				bs.Add(uint32(docNum))

				io.FreqNorms[pid] = append(io.FreqNorms[pid],
					interimFreqNorm{
						freq:    uint64(tf.Frequency()),
						norm:    norm,
						numLocs: len(tf.Locations),
					})

				if len(tf.Locations) > 0 {
					locs := io.Locs[pid]

					for _, loc := range tf.Locations {
						var locf = uint16(fid)
						if loc.Field != "" {
							locf = uint16(io.getOrDefineField(loc.Field))
						}
						var arrayposs []uint64
						if len(loc.ArrayPositions) > 0 {
							arrayposs = loc.ArrayPositions
						}
						locs = append(locs, interimLoc{
							fieldID:   locf,
							pos:       uint64(loc.Position),
							start:     uint64(loc.Start),
							end:       uint64(loc.End),
							arrayposs: arrayposs,
						})
					}

					io.Locs[pid] = locs
				}
			}
		}
		for i := 0; i < len(io.FieldsInv); i++ { // clear these for reuse
			io.reusableFieldLens[i] = 0
			io.reusableFieldTFs[i] = nil
		}
		return
	}

	io.reusableFieldLens[fieldID] += field.AnalyzedLength()
	if io.fast {
		return // sponge: realloc noted the terms
	}
	existingFreqs := io.reusableFieldTFs[fieldID]
	if existingFreqs != nil {
		existingFreqs.MergeAll(field.Name(), field.AnalyzedTokenFrequencies())
	} else {
		io.reusableFieldTFs[fieldID] = field.AnalyzedTokenFrequencies()
	}
}

func (i *invertedIndexOpaque) initDictsAndKeysFromFields() {
	numFields := len(i.FieldsInv)

	// Resize or allocate Dicts
	if cap(i.Dicts) >= numFields {
		i.Dicts = i.Dicts[:numFields]
	} else {
		i.Dicts = make([]map[string]uint64, numFields)
	}

	// Resize or allocate DictKeys
	if cap(i.DictKeys) >= numFields {
		i.DictKeys = i.DictKeys[:numFields]
	} else {
		i.DictKeys = make([][]string, numFields)
	}

	for idx := 0; idx < numFields; idx++ {
		// --- Dicts ---
		if i.Dicts[idx] == nil {
			// sponge: room for as many terms as the last segment's had:
			// growing the map was a third of its cost
			i.Dicts[idx] = make(map[string]uint64, lastBuilt.dictTerms(i.FieldsInv[idx]))
		} else {
			clear(i.Dicts[idx])
		}

		// --- DictKeys ---
		if i.DictKeys[idx] != nil {
			i.DictKeys[idx] = i.DictKeys[idx][:0]
		} else {
			i.DictKeys[idx] = nil
		}
	}
}

// termLister is a field that gives its terms and how often each occurs as
// two lists (freqs[k] for terms[k], each term once, no locations), which
// realloc reads instead of the field's AnalyzedTokenFrequencies: sponge's
// text field, whose map of a TokenFreq for each term was most of what a
// document took in memory until its segment was built (sponge).
type termLister interface {
	TermLists() (terms []string, freqs []uint32)
}

func (i *invertedIndexOpaque) realloc() {
	var pidNext int

	var totTFs int
	var totLocs int

	// initialize dicts and dict keys from fieldsMap
	i.initDictsAndKeysFromFields()

	// sponge: the terms of each document, in documents' order, and each
	// field's last document (plus one), to see a field twice in one
	// Their number first, to make room for them at once (the pool of
	// interims is emptied by every collection, so what the batch before
	// made is seldom there to reuse).
	n := 0
	for _, result := range i.results {
		result.VisitComposite(func(field index.CompositeField) { n += len(field.AnalyzedTokenFrequencies()) })
		result.VisitFields(func(field index.Field) {
			if tl, ok := field.(termLister); ok {
				terms, _ := tl.TermLists()
				n += len(terms)
			} else {
				n += len(field.AnalyzedTokenFrequencies())
			}
		})
	}
	if cap(i.docTerms) < n {
		i.docTerms = make([]docTerm, 0, n)
	}
	i.docTerms = i.docTerms[:0]
	i.docTermsAt = append(i.docTermsAt[:0], 0)
	i.fieldDoc = i.fieldDoc[:0]
	i.fast = true
	for len(i.dictTerms) < len(i.DictKeys) {
		i.dictTerms = append(i.dictTerms, nil)
	}
	// sponge: room for as many new terms as the last segment had, in each
	// field's lists and in the counts of all (they grew from nothing)
	allTerms := 0
	for fieldID, name := range i.FieldsInv {
		terms := lastBuilt.dictTerms(name)
		allTerms += terms
		if cap(i.DictKeys[fieldID]) < terms {
			i.DictKeys[fieldID] = make([]string, 0, terms)
		}
		if cap(i.dictTerms[fieldID]) < terms {
			i.dictTerms[fieldID] = make([]termPid, 0, terms)
		}
	}
	if cap(i.numTermsPerPostingsList) < allTerms {
		i.numTermsPerPostingsList = make([]int, 0, allTerms)
		i.numLocsPerPostingsList = make([]int, 0, allTerms)
	}

	visitField := func(field index.Field, docNum int) {
		fieldID := uint16(i.getOrDefineField(field.Name()))

		dict := i.Dicts[fieldID]
		dictKeys := i.DictKeys[fieldID]
		for len(i.fieldDoc) <= int(fieldID) {
			i.fieldDoc = append(i.fieldDoc, 0)
		}
		if i.fieldDoc[fieldID] == docNum+1 {
			i.fast = false // its terms merge with the field's before (process)
		}
		i.fieldDoc[fieldID] = docNum + 1

		addTerm := func(term string, freq, locs int) {
			pidPlus1, exists := dict[term]
			if !exists {
				pidNext++
				pidPlus1 = uint64(pidNext)

				dict[term] = pidPlus1
				dictKeys = append(dictKeys, term)
				for len(i.dictTerms) <= int(fieldID) {
					i.dictTerms = append(i.dictTerms, nil)
				}
				i.dictTerms[fieldID] = append(i.dictTerms[fieldID], termPid{term, pidPlus1 - 1})

				i.numTermsPerPostingsList = append(i.numTermsPerPostingsList, 0)
				i.numLocsPerPostingsList = append(i.numLocsPerPostingsList, 0)
			}

			pid := pidPlus1 - 1

			i.numTermsPerPostingsList[pid] += 1
			if locs > 0 {
				// sponge: no write to the list's count when there are
				// none (sponge's fields have none)
				i.numLocsPerPostingsList[pid] += locs
				totLocs += locs
			}
			i.docTerms = append(i.docTerms, docTerm{pid: uint32(pid), field: fieldID, freq: uint32(freq)})
		}

		if tl, ok := field.(termLister); ok {
			// sponge: the terms as two lists, no map to range over
			terms, freqs := tl.TermLists()
			for k, term := range terms {
				addTerm(term, int(freqs[k]), 0)
			}
			totTFs += len(terms)
		} else {
			tfs := field.AnalyzedTokenFrequencies()
			for term, tf := range tfs {
				addTerm(term, tf.Frequency(), len(tf.Locations))
			}
			totTFs += len(tfs)
		}

		i.DictKeys[fieldID] = dictKeys
		if field.Options().IncludeDocValues() {
			i.IncludeDocValues[fieldID] = true
		}

		if f, ok := field.(index.GeoShapeField); ok {
			if _, exists := i.extraDocValues[docNum]; !exists {
				i.extraDocValues[docNum] = make(map[uint16][][]byte)
			}
			i.extraDocValues[docNum][fieldID] = append(i.extraDocValues[docNum][fieldID], f.EncodedShape())
		}
	}

	if cap(i.IncludeDocValues) >= len(i.FieldsInv) {
		i.IncludeDocValues = i.IncludeDocValues[:len(i.FieldsInv)]
	} else {
		i.IncludeDocValues = make([]bool, len(i.FieldsInv))
	}

	if i.extraDocValues == nil {
		i.extraDocValues = map[int]map[uint16][][]byte{}
	}

	for docNum, result := range i.results {
		// walk each composite field
		result.VisitComposite(func(field index.CompositeField) {
			visitField(field, docNum)
		})

		// walk each field
		result.VisitFields(func(field index.Field) {
			visitField(field, docNum)
		})
		i.docTermsAt = append(i.docTermsAt, len(i.docTerms))
	}
	if totLocs > 0 {
		i.fast = false // the locations go by process's way
	}
	lastBuilt.setDictTerms(i.FieldsInv, i.Dicts)

	numPostingsLists := pidNext

	if i.fast {
		// sponge: no bitmaps: writeDicts encodes each list from postingDocs
		i.Postings = i.Postings[:0]
	} else if cap(i.Postings) >= numPostingsLists {
		i.Postings = i.Postings[:numPostingsLists]
	} else {
		postings := make([]*roaring.Bitmap, numPostingsLists)
		copy(postings, i.Postings[:cap(i.Postings)])
		for i := 0; i < numPostingsLists; i++ {
			if postings[i] == nil {
				postings[i] = roaring.New()
			}
		}
		i.Postings = postings
	}

	if i.fast {
		// sponge: a list's frequencies and norms go with its documents
		// (postingDocs), and there are no locations
		i.FreqNorms, i.freqNormsBacking = i.FreqNorms[:0], i.freqNormsBacking[:0]
		i.Locs, i.locsBacking = i.Locs[:0], i.locsBacking[:0]
	} else {
		i.allocFreqNormsLocs(numPostingsLists, totTFs, totLocs)
	}

	if i.fast {
		// sponge: the documents of each postings list, with their
		// frequencies and norms, noted by process in order
		if cap(i.postingDocs) >= numPostingsLists {
			i.postingDocs = i.postingDocs[:numPostingsLists]
		} else {
			i.postingDocs = make([][]fastPosting, numPostingsLists)
		}
		if cap(i.postingDocsBacking) >= totTFs {
			i.postingDocsBacking = i.postingDocsBacking[:totTFs]
		} else {
			i.postingDocsBacking = make([]fastPosting, totTFs)
		}
		backing := i.postingDocsBacking
		for pid, numTerms := range i.numTermsPerPostingsList {
			i.postingDocs[pid] = backing[0:0:numTerms]
			backing = backing[numTerms:]
		}
	}
	i.sortDictKeys()

	if cap(i.reusableFieldTFs) >= len(i.FieldsInv) {
		i.reusableFieldTFs = i.reusableFieldTFs[:len(i.FieldsInv)]
	} else {
		i.reusableFieldTFs = make([]index.TokenFrequencies, len(i.FieldsInv))
	}

	if cap(i.reusableFieldLens) >= len(i.FieldsInv) {
		i.reusableFieldLens = i.reusableFieldLens[:len(i.FieldsInv)]
	} else {
		i.reusableFieldLens = make([]int, len(i.FieldsInv))
	}
}

// allocFreqNormsLocs makes room for the frequencies and norms, and the
// locations, of each postings list, as zapx's realloc does.
func (i *invertedIndexOpaque) allocFreqNormsLocs(numPostingsLists, totTFs, totLocs int) {
	if cap(i.FreqNorms) >= numPostingsLists {
		i.FreqNorms = i.FreqNorms[:numPostingsLists]
	} else {
		i.FreqNorms = make([][]interimFreqNorm, numPostingsLists)
	}

	if cap(i.freqNormsBacking) >= totTFs {
		i.freqNormsBacking = i.freqNormsBacking[:totTFs]
	} else {
		i.freqNormsBacking = make([]interimFreqNorm, totTFs)
	}

	freqNormsBacking := i.freqNormsBacking
	for pid, numTerms := range i.numTermsPerPostingsList {
		i.FreqNorms[pid] = freqNormsBacking[0:0]
		freqNormsBacking = freqNormsBacking[numTerms:]
	}

	if cap(i.Locs) >= numPostingsLists {
		i.Locs = i.Locs[:numPostingsLists]
	} else {
		i.Locs = make([][]interimLoc, numPostingsLists)
	}

	if cap(i.locsBacking) >= totLocs {
		i.locsBacking = i.locsBacking[:totLocs]
	} else {
		i.locsBacking = make([]interimLoc, totLocs)
	}

	locsBacking := i.locsBacking
	for pid, numLocs := range i.numLocsPerPostingsList {
		i.Locs[pid] = locsBacking[0:0]
		locsBacking = locsBacking[numLocs:]
	}
}

// sortDictKeys sorts each field's terms (DictKeys), with their postings
// lists (dictPids), so that writeDicts need not look them up (sponge).
func (i *invertedIndexOpaque) sortDictKeys() {
	for len(i.dictPids) < len(i.DictKeys) {
		i.dictPids = append(i.dictPids, nil)
	}
	i.dictPids = i.dictPids[:len(i.DictKeys)]
	for fieldID, keys := range i.DictKeys {
		var sorted []termPid
		if fieldID < len(i.dictTerms) {
			sorted = i.dictTerms[fieldID]
		}
		slices.SortFunc(sorted, func(a, b termPid) int { return strings.Compare(a.term, b.term) })
		pids := i.dictPids[fieldID][:0]
		for n, tp := range sorted {
			keys[n] = tp.term
			pids = append(pids, tp.pid)
		}
		i.dictPids[fieldID] = pids
		clear(sorted)
		if fieldID < len(i.dictTerms) {
			i.dictTerms[fieldID] = sorted[:0]
		}
	}
}

func (i *invertedTextIndexSection) getInvertedIndexOpaque(opaque map[int]resetable) *invertedIndexOpaque {
	if _, ok := opaque[SectionInvertedTextIndex]; !ok {
		opaque[SectionInvertedTextIndex] = i.InitOpaque(nil)
	}
	return opaque[SectionInvertedTextIndex].(*invertedIndexOpaque)
}

func (i *invertedIndexOpaque) getOrDefineField(fieldName string) int {
	fieldIDPlus1, exists := i.FieldsMap[fieldName]
	if !exists {
		fieldIDPlus1 = uint16(len(i.FieldsInv) + 1)
		i.FieldsMap[fieldName] = fieldIDPlus1
		i.FieldsInv = append(i.FieldsInv, fieldName)

		i.Dicts = append(i.Dicts, make(map[string]uint64))

		n := len(i.DictKeys)
		if n < cap(i.DictKeys) {
			i.DictKeys = i.DictKeys[:n+1]
			i.DictKeys[n] = i.DictKeys[n][:0]
		} else {
			i.DictKeys = append(i.DictKeys, []string(nil))
		}
	}

	return int(fieldIDPlus1 - 1)
}

func (i *invertedTextIndexSection) InitOpaque(args map[string]interface{}) resetable {
	rv := &invertedIndexOpaque{
		fieldAddrs: map[int]int{},
	}
	for k, v := range args {
		rv.Set(k, v)
	}

	return rv
}

type invertedIndexOpaque struct {
	bytesWritten uint64 // atomic access to this variable, moved to top to correct alignment issues on ARM, 386 and 32-bit MIPS.

	results []index.Document

	chunkMode uint32

	// indicates whethere the following structs are initialized
	init bool

	// FieldsMap adds 1 to field id to avoid zero value issues
	//  name -> field id + 1
	FieldsMap map[string]uint16

	// FieldsInv is the inverse of FieldsMap
	//  field id -> name
	FieldsInv []string

	// Field indexing options
	//  field name -> options
	FieldsOptions map[string]index.FieldIndexingOptions

	// Term dictionaries for each field
	//  field id -> term -> postings list id + 1
	Dicts []map[string]uint64

	// Terms for each field, where terms are sorted ascending
	//  field id -> []term
	DictKeys [][]string

	// Fields whose IncludeDocValues is true
	//  field id -> bool
	IncludeDocValues []bool

	// postings id -> bitmap of docNums
	Postings []*roaring.Bitmap

	// postings id -> freq/norm's, one for each docNum in postings
	FreqNorms        [][]interimFreqNorm
	freqNormsBacking []interimFreqNorm

	// postings id -> locs, one for each freq
	Locs        [][]interimLoc
	locsBacking []interimLoc

	numTermsPerPostingsList []int // key is postings list id
	numLocsPerPostingsList  []int // key is postings list id

	// store terms that are unnecessary for the term dictionaries but needed in doc values
	// eg - encoded geoshapes
	// docNum -> fieldID -> terms
	extraDocValues map[int]map[uint16][][]byte

	builder    *vellum.Builder
	builderBuf bytes.Buffer

	// reusable stuff for processing fields etc.
	reusableFieldLens []int
	reusableFieldTFs  []index.TokenFrequencies

	tmp0 []byte

	fieldAddrs map[int]int

	fieldsSame bool
	numDocs    uint64

	// sponge: see SPONGE.md
	fast               bool            // no locations, no field twice in a document
	docTerms           []docTerm       // the terms of every document, in order
	docTermsAt         []int           // docNum -> where its terms start in docTerms (and end, at docNum+1)
	fieldDoc           []int           // field id -> the last document with it, plus one
	postingDocs        [][]fastPosting // postings list id -> its documents, in order
	postingDocsBacking []fastPosting
	docNums            []uint32    // a postings list's documents (writeFastPostings)
	roaringBuf         []byte      // a postings list's bitmap, serialized (writeFastPostings)
	dictPids           [][]uint64  // field id -> the postings list of each of DictKeys
	dictTerms          [][]termPid // field id -> its terms and their postings lists, as realloc finds them
}

// writeFastPostings writes the postings list pid of term, and adds the term
// to the dictionary being built, as writeDicts does, from the documents
// process noted in order (postingDocs) rather than from a roaring bitmap: the
// bitmap's serialized form is made by appendRoaring, without a bitmap built
// one document at a time (AddMany), iterated, and serialized through a
// bytes.Buffer of its own for every term (sponge).
func (io *invertedIndexOpaque) writeFastPostings(w *FileWriter, term string, pid uint64,
	tfEncoder, locEncoder *chunkedIntCoder, docTermMap [][]byte, docValues bool, buf []byte) error {
	postings := io.postingDocs[pid]
	if len(postings) == 0 {
		return nil // writePostings writes nothing for an empty list
	}
	docs := io.docNums[:0]
	chunkSize, err := getChunkSize(io.chunkMode, uint64(len(postings)), uint64(len(io.results)))
	if err != nil {
		return err
	}
	tfEncoder.SetChunkSize(chunkSize, uint64(len(io.results)-1))
	locEncoder.SetChunkSize(chunkSize, uint64(len(io.results)-1))
	for _, p := range postings {
		docNum := uint64(p.doc)
		docs = append(docs, p.doc)
		if p.freq > 0 {
			err = tfEncoder.Add(docNum, encodeFreqHasLocs(uint64(p.freq), false),
				uint64(math.Float32bits(p.norm)))
		} else {
			err = tfEncoder.Add(docNum, encodeFreqHasLocs(uint64(p.freq), false))
		}
		if err != nil {
			return err
		}
		if docValues {
			docTermMap[docNum] = append(append(docTermMap[docNum], term...), index.DocValueTermSeparator)
		}
	}
	tfEncoder.Close()
	locEncoder.Close()
	io.incrementBytesWritten(locEncoder.getBytesWritten())
	io.incrementBytesWritten(tfEncoder.getBytesWritten())

	// as writePostings, without use1HitEncoding (nil here)
	tfOffset, _, err := tfEncoder.writeAt(w)
	if err != nil {
		return err
	}
	locOffset, _, err := locEncoder.writeAt(w)
	if err != nil {
		return err
	}
	postingsOffset := uint64(w.Count())
	n := binary.PutUvarint(buf, tfOffset)
	if _, err = w.Write(buf[:n]); err != nil {
		return err
	}
	n = binary.PutUvarint(buf, locOffset)
	if _, err = w.Write(buf[:n]); err != nil {
		return err
	}
	// as writeRoaringWithLen
	io.roaringBuf = appendRoaring(io.roaringBuf[:0], docs)
	io.docNums = docs
	data := w.process(io.roaringBuf)
	n = binary.PutUvarint(buf, uint64(len(data)))
	if _, err = w.Write(buf[:n]); err != nil {
		return err
	}
	if _, err = w.Write(data); err != nil {
		return err
	}

	if postingsOffset > 0 {
		// the builder copies what it keeps of a key
		if err = io.builder.Insert(unsafe.Slice(unsafe.StringData(term), len(term)), postingsOffset); err != nil {
			return err
		}
	}
	tfEncoder.Reset()
	locEncoder.Reset()
	return nil
}

// appendRoaring appends to dst what roaring's Bitmap.ToBytes writes for the
// bitmap of docs (ascending, no number twice) made by Add or AddMany: the
// format without run containers; a container (the numbers that share their
// upper 16 bits) of more than 4,096 numbers as a bitmap, others as an array
// (sponge).
func appendRoaring(dst []byte, docs []uint32) []byte {
	const arrayMax = 4096 // roaring's arrayDefaultMaxSize
	containers := 0
	for i := 0; i < len(docs); i += containerLen(docs[i:]) {
		containers++
	}
	dst = binary.LittleEndian.AppendUint32(dst, 12346) // serialCookieNoRunContainer
	dst = binary.LittleEndian.AppendUint32(dst, uint32(containers))
	for i, n := 0, 0; i < len(docs); i += n {
		n = containerLen(docs[i:])
		dst = binary.LittleEndian.AppendUint16(dst, uint16(docs[i]>>16))
		dst = binary.LittleEndian.AppendUint16(dst, uint16(n-1))
	}
	at := 8 + 8*containers // where the first container starts
	for i, n := 0, 0; i < len(docs); i += n {
		n = containerLen(docs[i:])
		dst = binary.LittleEndian.AppendUint32(dst, uint32(at))
		if n > arrayMax {
			at += 8192
		} else {
			at += 2 * n
		}
	}
	for i, n := 0, 0; i < len(docs); i += n {
		n = containerLen(docs[i:])
		if n <= arrayMax {
			for _, d := range docs[i : i+n] {
				dst = binary.LittleEndian.AppendUint16(dst, uint16(d))
			}
			continue
		}
		var words [1024]uint64
		for _, d := range docs[i : i+n] {
			words[uint16(d)>>6] |= 1 << (d & 63)
		}
		for _, word := range words {
			dst = binary.LittleEndian.AppendUint64(dst, word)
		}
	}
	return dst
}

// containerLen is how many of docs (ascending) share the first's upper 16
// bits: the numbers of its roaring container.
func containerLen(docs []uint32) int {
	high := docs[0] >> 16
	if docs[len(docs)-1]>>16 == high {
		return len(docs)
	}
	n, _ := slices.BinarySearch(docs, (high+1)<<16)
	return n
}

// mergedDocs are a term's documents in a merged segment, noted as the merge
// finds them (in order: segments one after another, each one's documents
// renumbered in order), for what the roaring bitmap of them that zapx built
// one Add at a time would tell and serialize (sponge). Numbers out of order
// are put in such a bitmap after all.
type mergedDocs struct {
	docs     []uint32
	unsorted bool
	bitmap   *roaring.Bitmap // of docs, when unsorted
	buf      []byte
}

func (m *mergedDocs) Add(doc uint32) {
	if n := len(m.docs); n > 0 && doc <= m.docs[n-1] {
		m.unsorted = true
	}
	m.docs = append(m.docs, doc)
}

func (m *mergedDocs) Clear() {
	m.docs = m.docs[:0]
	m.unsorted = false
	m.bitmap = nil
}

func (m *mergedDocs) asBitmap() *roaring.Bitmap {
	if m.bitmap == nil {
		m.bitmap = roaring.BitmapOf(m.docs...)
	}
	return m.bitmap
}

func (m *mergedDocs) GetCardinality() uint64 {
	if m.unsorted {
		return m.asBitmap().GetCardinality()
	}
	return uint64(len(m.docs))
}

// Minimum is the least document, as roaring's (MaxUint32 when none).
func (m *mergedDocs) Minimum() uint32 {
	if m.unsorted || len(m.docs) == 0 {
		return m.asBitmap().Minimum()
	}
	return m.docs[0]
}

// toBytes is what roaring's ToBytes writes for the documents.
func (m *mergedDocs) toBytes() ([]byte, error) {
	if m.unsorted {
		return m.asBitmap().ToBytes()
	}
	m.buf = appendRoaring(m.buf[:0], m.docs)
	return m.buf, nil
}

// writeMergedPostings is writePostings for the documents of a merged
// term (sponge).
func writeMergedPostings(docs *mergedDocs, tfEncoder, locEncoder *chunkedIntCoder,
	use1HitEncoding func(uint64) (bool, uint64, uint64),
	w *FileWriter, bufMaxVarintLen64 []byte) (uint64, error) {
	termCardinality := docs.GetCardinality()
	if termCardinality <= 0 {
		return 0, nil
	}
	if use1HitEncoding != nil {
		encodeAs1Hit, docNum1Hit, normBits1Hit := use1HitEncoding(termCardinality)
		if encodeAs1Hit {
			return FSTValEncode1Hit(docNum1Hit, normBits1Hit), nil
		}
	}
	tfOffset, _, err := tfEncoder.writeAt(w)
	if err != nil {
		return 0, err
	}
	locOffset, _, err := locEncoder.writeAt(w)
	if err != nil {
		return 0, err
	}
	postingsOffset := uint64(w.Count())
	n := binary.PutUvarint(bufMaxVarintLen64, tfOffset)
	if _, err = w.Write(bufMaxVarintLen64[:n]); err != nil {
		return 0, err
	}
	n = binary.PutUvarint(bufMaxVarintLen64, locOffset)
	if _, err = w.Write(bufMaxVarintLen64[:n]); err != nil {
		return 0, err
	}
	// as writeRoaringWithLen
	buf, err := docs.toBytes()
	if err != nil {
		return 0, err
	}
	buf = w.process(buf)
	n = binary.PutUvarint(bufMaxVarintLen64, uint64(len(buf)))
	if _, err = w.Write(bufMaxVarintLen64[:n]); err != nil {
		return 0, err
	}
	if _, err = w.Write(buf); err != nil {
		return 0, err
	}
	return postingsOffset, nil
}

// fastPosting is a document of a postings list, with the term's frequency
// and the field's norm in it (sponge).
type fastPosting struct {
	doc, freq uint32
	norm      float32
}

// docTerm is a term of a document's field as realloc finds it (sponge).
type docTerm struct {
	pid   uint32
	freq  uint32
	field uint16
}

// termPid is a term and its postings list (sponge).
type termPid struct {
	term string
	pid  uint64
}

func (io *invertedIndexOpaque) Reset() (err error) {
	// cleanup stuff over here
	io.results = nil
	io.init = false
	io.chunkMode = 0
	io.FieldsMap = nil
	io.FieldsOptions = nil
	io.FieldsInv = nil
	for i := range io.Dicts {
		io.Dicts[i] = nil
	}
	io.Dicts = io.Dicts[:0]
	for i := range io.DictKeys {
		io.DictKeys[i] = io.DictKeys[i][:0]
	}
	io.DictKeys = io.DictKeys[:0]
	for i := range io.IncludeDocValues {
		io.IncludeDocValues[i] = false
	}
	io.IncludeDocValues = io.IncludeDocValues[:0]
	for _, idn := range io.Postings {
		idn.Clear()
	}
	io.Postings = io.Postings[:0]
	io.FreqNorms = io.FreqNorms[:0]
	for i := range io.freqNormsBacking {
		io.freqNormsBacking[i] = interimFreqNorm{}
	}
	io.freqNormsBacking = io.freqNormsBacking[:0]
	io.Locs = io.Locs[:0]
	for i := range io.locsBacking {
		io.locsBacking[i] = interimLoc{}
	}
	io.locsBacking = io.locsBacking[:0]
	io.numTermsPerPostingsList = io.numTermsPerPostingsList[:0]
	io.numLocsPerPostingsList = io.numLocsPerPostingsList[:0]
	io.builderBuf.Reset()
	if io.builder != nil {
		err = io.builder.Reset(&io.builderBuf)
	}

	io.reusableFieldLens = io.reusableFieldLens[:0]
	io.reusableFieldTFs = io.reusableFieldTFs[:0]

	io.tmp0 = io.tmp0[:0]
	io.extraDocValues = nil
	atomic.StoreUint64(&io.bytesWritten, 0)
	io.fieldsSame = false
	io.numDocs = 0

	io.fast = false
	io.docTerms = io.docTerms[:0]
	io.docTermsAt = io.docTermsAt[:0]
	io.fieldDoc = io.fieldDoc[:0]
	io.postingDocs = io.postingDocs[:0]
	io.postingDocsBacking = io.postingDocsBacking[:0]
	for n := range io.dictPids {
		io.dictPids[n] = io.dictPids[n][:0]
	}
	io.dictPids = io.dictPids[:0]
	for n := range io.dictTerms {
		clear(io.dictTerms[n])
		io.dictTerms[n] = io.dictTerms[n][:0]
	}
	io.dictTerms = io.dictTerms[:0]

	clear(io.fieldAddrs)

	return err
}
func (i *invertedIndexOpaque) Set(key string, val interface{}) {
	switch key {
	case "results":
		i.results = val.([]index.Document)
	case "chunkMode":
		i.chunkMode = val.(uint32)
	case "fieldsSame":
		i.fieldsSame = val.(bool)
	case "fieldsMap":
		i.FieldsMap = val.(map[string]uint16)
	case "fieldsOptions":
		i.FieldsOptions = val.(map[string]index.FieldIndexingOptions)
	case "fieldsInv":
		i.FieldsInv = val.([]string)
	case "numDocs":
		i.numDocs = val.(uint64)
	}
}
